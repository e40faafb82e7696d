// fetch.fetch by hand, both flavours (bench/handwritten.js).
import { isJsonObject, isJsonValue, isRecord, longerThan, notePrototypePollution, ownKeysIfPolluted, shorterThan } from './support.js';

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'url':
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 2048)) return false;
        required++;
        break;
      case 'max_length':
        if (!Number.isInteger(item) || item < 1 || item > 999999) return false;
        break;
      case 'start_index':
        if (!Number.isInteger(item) || item < 0) return false;
        break;
      case 'raw':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
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
      case 'url':
      case 'content':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'truncated':
        if (typeof item !== 'boolean') return false;
        required++;
        break;
      case 'status':
        if (!Number.isInteger(item) || item < 100 || item > 599) return false;
        break;
      case 'content_type':
        if (typeof item !== 'string') return false;
        break;
      case 'next_start_index':
        if (!Number.isInteger(item) || item < 0) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
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

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { url, max_length, start_index, raw } = value;
      if (typeof url !== 'string' || shorterThan(url, 1) || longerThan(url, 2048)) return false;
      if (max_length !== undefined && (!Number.isInteger(max_length) || max_length < 1 || max_length > 999999)) return false;
      if (start_index !== undefined && (!Number.isInteger(start_index) || start_index < 0)) return false;
      return raw === undefined || typeof raw === 'boolean';
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { url, status, content_type, content, truncated, next_start_index } = value;
      if (typeof url !== 'string' || typeof content !== 'string' || typeof truncated !== 'boolean') return false;
      if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599)) return false;
      if (content_type !== undefined && typeof content_type !== 'string') return false;
      return next_start_index === undefined || (Number.isInteger(next_start_index) && next_start_index >= 0);
    },
  },
};
