// weather.get_current by hand, both flavours (bench/handwritten.js).
import { isJsonObject, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const isUnit = (value) => value === 'celsius' || value === 'fahrenheit';

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    switch (key) {
      case 'location': {
        const location = value[key];
        if (typeof location !== 'string' || shorterThan(location, 1) || longerThan(location, 120)) return false;
        required++;
        break;
      }
      case 'unit':
        if (!isUnit(value[key])) return false;
        break;
      default:
        return false;
    }
  }
  return required === 1;
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'location':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'temperature':
        if (typeof item !== 'number' || !(item >= -130 && item <= 160)) return false;
        required++;
        break;
      case 'unit':
        if (!isUnit(item)) return false;
        required++;
        break;
      case 'conditions':
        if (typeof item !== 'string' || longerThan(item, 80)) return false;
        break;
      case 'humidity':
        if (!Number.isInteger(item) || item < 0 || item > 100) return false;
        break;
      case 'observed_at':
        if (typeof item !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return required === 3;
}

export const sameGuarantees = {
  input: {
    is(value) {
      try {
        notePrototypePollution();
        return soundInput(value);
      } catch {
        return false;
      }
    },
  },
  output: {
    is(value) {
      try {
        notePrototypePollution();
        return soundOutput(value);
      } catch {
        return false;
      }
    },
  },
};

// ---- as usually written

const inputKeys = new Set(['location', 'unit']);
const outputKeys = new Set(['location', 'temperature', 'unit', 'conditions', 'humidity', 'observed_at']);

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { location, unit } = value;
      if (typeof location !== 'string' || shorterThan(location, 1) || longerThan(location, 120)) return false;
      return (unit === undefined || isUnit(unit)) && onlyKeys(value, inputKeys);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { location, temperature, unit, conditions, humidity, observed_at } = value;
      if (typeof location !== 'string' || typeof temperature !== 'number' || temperature < -130 || temperature > 160 || !isUnit(unit)) return false;
      if (conditions !== undefined && (typeof conditions !== 'string' || longerThan(conditions, 80))) return false;
      if (humidity !== undefined && (!Number.isInteger(humidity) || humidity < 0 || humidity > 100)) return false;
      if (observed_at !== undefined && typeof observed_at !== 'string') return false;
      return onlyKeys(value, outputKeys);
    },
  },
};
