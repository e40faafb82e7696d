// browser.resize by hand, both flavours (bench/handwritten.js).
import { isJsonObject, isJsonValue, isRecord, notePrototypePollution, onlyKeys, ownKeysIfPolluted } from './support.js';

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'width':
        if (!Number.isInteger(item) || item < 1 || item > 7680) return false;
        required++;
        break;
      case 'height':
        if (!Number.isInteger(item) || item < 1 || item > 4320) return false;
        required++;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 2;
}

function soundViewport(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    if (key !== 'width' && key !== 'height') return false;
    const side = value[key];
    if (!Number.isInteger(side) || side < 1) return false;
    required++;
  }
  return required === 2;
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'viewport':
        if (!soundViewport(item)) return false;
        required++;
        break;
      case 'devicePixelRatio':
        if (typeof item !== 'number' || !(item >= 0.25 && item <= 8)) return false;
        break;
      case 'message':
        if (typeof item !== 'string') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
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

const viewportKeys = new Set(['width', 'height']);

function usualViewport(viewport) {
  if (!isRecord(viewport)) return false;
  const { width, height } = viewport;
  return Number.isInteger(width) && width >= 1 && Number.isInteger(height) && height >= 1 && onlyKeys(viewport, viewportKeys);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { width, height } = value;
      return Number.isInteger(width) && width >= 1 && width <= 7680 && Number.isInteger(height) && height >= 1 && height <= 4320;
    },
  },
  output: {
    is(value) {
      if (!isRecord(value) || !usualViewport(value.viewport)) return false;
      const { devicePixelRatio, message } = value;
      if (devicePixelRatio !== undefined && (typeof devicePixelRatio !== 'number' || devicePixelRatio < 0.25 || devicePixelRatio > 8)) return false;
      return message === undefined || typeof message === 'string';
    },
  },
};
