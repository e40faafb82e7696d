// brave.web_search by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isRecord, longerThan, notePrototypePollution, ownKeysIfPolluted, shorterThan } from './support.js';

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'query':
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 400)) return false;
        required++;
        break;
      case 'count':
        if (!Number.isInteger(item) || item < 1 || item > 20) return false;
        break;
      case 'offset':
        if (!Number.isInteger(item) || item < 0 || item > 9) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundResult(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'title':
      case 'url':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'description':
      case 'age':
        if (typeof item !== 'string') return false;
        break;
      case 'language':
        if (typeof item !== 'string' || longerThan(item, 8)) return false;
        break;
      case 'family_friendly':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
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
      case 'query':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'results':
        if (!Array.isArray(item) || item.length > 20) return false;
        for (let i = 0; i < item.length; i++) if (!soundResult(element(item, i))) return false;
        required++;
        break;
      case 'more_results_available':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 2;
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

function usualResult(result) {
  if (!isRecord(result)) return false;
  const { title, url, description, age, language, family_friendly } = result;
  if (typeof title !== 'string' || typeof url !== 'string') return false;
  if (description !== undefined && typeof description !== 'string') return false;
  if (age !== undefined && typeof age !== 'string') return false;
  if (language !== undefined && (typeof language !== 'string' || longerThan(language, 8))) return false;
  return family_friendly === undefined || typeof family_friendly === 'boolean';
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { query, count, offset } = value;
      if (typeof query !== 'string' || shorterThan(query, 1) || longerThan(query, 400)) return false;
      if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 20)) return false;
      return offset === undefined || (Number.isInteger(offset) && offset >= 0 && offset <= 9);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { query, results, more_results_available } = value;
      if (typeof query !== 'string' || !Array.isArray(results) || results.length > 20 || !results.every(usualResult)) return false;
      return more_results_available === undefined || typeof more_results_available === 'boolean';
    },
  },
};
