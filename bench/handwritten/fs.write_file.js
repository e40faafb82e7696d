// fs.write_file by hand, both flavours (bench/handwritten.js).
import { isJsonObject, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    switch (key) {
      case 'path': {
        const path = value[key];
        if (typeof path !== 'string' || shorterThan(path, 1) || longerThan(path, 4096)) return false;
        required++;
        break;
      }
      case 'content':
        if (typeof value[key] !== 'string') return false;
        required++;
        break;
      default:
        return false;
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
    if (key !== 'content' || typeof value[key] !== 'string') return false;
    required++;
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

const inputKeys = new Set(['path', 'content']);
const outputKeys = new Set(['content']);

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { path, content } = value;
      return typeof path === 'string' && !shorterThan(path, 1) && !longerThan(path, 4096) && typeof content === 'string' && onlyKeys(value, inputKeys);
    },
  },
  output: {
    is: (value) => isRecord(value) && typeof value.content === 'string' && onlyKeys(value, outputKeys),
  },
};
