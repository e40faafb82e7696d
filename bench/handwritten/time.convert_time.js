// time.convert_time by hand, both flavours (bench/handwritten.js).
import { isJsonObject, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const days = new Set(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
const isTimezone = (value) => typeof value === 'string' && !shorterThan(value, 1) && !longerThan(value, 64);

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'source_timezone':
      case 'target_timezone':
        if (!isTimezone(item)) return false;
        break;
      case 'time':
        if (typeof item !== 'string' || shorterThan(item, 4) || longerThan(item, 5)) return false;
        break;
      default:
        return false;
    }
    required++;
  }
  return required === 3;
}

/** The source and the target. */
function soundMoment(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'timezone':
        if (typeof item !== 'string' || longerThan(item, 64)) return false;
        break;
      case 'datetime':
        if (typeof item !== 'string') return false;
        break;
      case 'day_of_week':
        if (typeof item !== 'string' || !days.has(item)) return false;
        break;
      case 'is_dst':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        return false;
    }
    required++;
  }
  return required === 4;
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'source':
      case 'target':
        if (!soundMoment(item)) return false;
        break;
      case 'time_difference':
        if (typeof item !== 'string') return false;
        break;
      default:
        return false;
    }
    required++;
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

const inputKeys = new Set(['source_timezone', 'time', 'target_timezone']);
const momentKeys = new Set(['timezone', 'datetime', 'day_of_week', 'is_dst']);
const outputKeys = new Set(['source', 'target', 'time_difference']);

function usualMoment(moment) {
  if (!isRecord(moment)) return false;
  const { timezone, datetime, day_of_week, is_dst } = moment;
  return typeof timezone === 'string' && !longerThan(timezone, 64) && typeof datetime === 'string' && days.has(day_of_week) && typeof is_dst === 'boolean' && onlyKeys(moment, momentKeys);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { source_timezone, time, target_timezone } = value;
      return isTimezone(source_timezone) && typeof time === 'string' && !shorterThan(time, 4) && !longerThan(time, 5) && isTimezone(target_timezone) && onlyKeys(value, inputKeys);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      return usualMoment(value.source) && usualMoment(value.target) && typeof value.time_difference === 'string' && onlyKeys(value, outputKeys);
    },
  },
};
