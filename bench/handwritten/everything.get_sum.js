// everything.get_sum by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isRecord, notePrototypePollution, onlyKeys, ownKeysIfPolluted } from './support.js';

const isNumber = (value) => typeof value === 'number' && Number.isFinite(value);

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    if ((key !== 'a' && key !== 'b') || !isNumber(value[key])) return false;
    required++;
  }
  return required === 2;
}

function soundOperands(value) {
  if (!Array.isArray(value) || value.length !== 2) return false;
  return isNumber(element(value, 0)) && isNumber(element(value, 1));
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    switch (key) {
      case 'sum':
        if (!isNumber(value[key])) return false;
        required++;
        break;
      case 'operands':
        if (!soundOperands(value[key])) return false;
        break;
      default:
        return false;
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

const inputKeys = new Set(['a', 'b']);
const outputKeys = new Set(['sum', 'operands']);

export const asUsuallyWritten = {
  input: {
    is: (value) => isRecord(value) && typeof value.a === 'number' && typeof value.b === 'number' && onlyKeys(value, inputKeys),
  },
  output: {
    is(value) {
      if (!isRecord(value) || typeof value.sum !== 'number') return false;
      const { operands } = value;
      if (operands !== undefined && (!Array.isArray(operands) || operands.length !== 2 || typeof operands[0] !== 'number' || typeof operands[1] !== 'number')) return false;
      return onlyKeys(value, outputKeys);
    },
  },
};
