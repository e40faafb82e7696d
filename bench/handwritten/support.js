// What the hand-written validators of bench/handwritten/ share. Both flavours count string lengths
// in code points (the schemas' rule: the corpus's valid samples hold astral strings at their
// maxLength, which a count of UTF-16 units rejects); only the "same guarantees" flavour uses the rest.

/** Code points, a lone surrogate counting as one. */
function codePoints(text) {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

// n UTF-16 units are n/2 to n code points, so the units decide unless the length is in that band.
export const longerThan = (text, max) => text.length > max && (text.length > 2 * max || codePoints(text) > max);
export const shorterThan = (text, min) => text.length < 2 * min && (text.length < min || codePoints(text) < min);

// ---- the "same guarantees" flavour

/**
 * for…in visits the object's own enumerable keys, and inherited ones only where something made a
 * key of Object.prototype enumerable. Each call looks once; where it finds one, every object's own
 * keys are taken from Object.keys (what JSON.stringify sees), so an inherited key never counts.
 */
let prototypePolluted = false;

export function notePrototypePollution() {
  prototypePolluted = false;
  for (const _key in Object.prototype) {
    prototypePolluted = true;
    break;
  }
}

/** The keys that are the object's own, where for…in may visit others; undefined where it visits only those. */
export const ownKeysIfPolluted = (value) => (prototypePolluted ? new Set(Object.keys(value)) : undefined);

/** A JSON object: not an array, and an object literal's prototype or none (a class instance has another). */
export function isJsonObject(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** An array's element, a hole reading as undefined (which no schema accepts) rather than what a prototype holds there. */
export const element = (array, index) => (Object.hasOwn(array, index) ? array[index] : undefined);

/** Any JSON value, for an open object's other keys; the depth bound stops cycles. */
export function isJsonValue(value, depth = 0) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= 256) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!Object.hasOwn(value, i) || !isJsonValue(value[i], depth + 1)) return false;
        return true;
      }
      if (!isJsonObject(value)) return false;
      for (const key in value) if (Object.hasOwn(value, key) && !isJsonValue(value[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

// ---- the "as usually written" flavour

export const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isOptionalString = (value) => value === undefined || typeof value === 'string';
export const isOptionalBoolean = (value) => value === undefined || typeof value === 'boolean';

/** A closed object's test: every key is one of the declared names. */
export function onlyKeys(value, names) {
  for (const key of Object.keys(value)) if (!names.has(key)) return false;
  return true;
}
