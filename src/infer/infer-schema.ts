/**
 * The tightest schema of the contract subset that accepts every sample (`jtc infer`): a `type`
 * where the samples agree on one (`integer` when every number is whole), an object's `properties`
 * for every key seen, `required` for the keys every sample has, `additionalProperties: false`
 * where every sample has the same keys, an array's `items` from all its elements and `minItems`
 * no tighter than the shortest seen, an `enum` for a small set of strings seen more than once.
 * No number bounds, string lengths or maxItems: what was seen is not what may come.
 * Values of several types have no `type` (the subset has no type arrays nor anyOf): any value.
 */
export type Schema = Record<string, unknown>;

/** At most this many distinct strings become an enum, and only when some repeat. */
export const maxEnumValues = 8;

type Kind = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

export function inferSchema(samples: readonly unknown[]): Schema {
  if (samples.length === 0) return {};
  const kinds = new Set(samples.map(kindOf));
  // Whole numbers among fractions are numbers.
  if (kinds.has('integer') && kinds.has('number')) kinds.delete('integer');
  if (kinds.size !== 1) return {};
  const [kind] = kinds as Set<Kind>;
  switch (kind) {
    case 'object':
      return objectSchema(samples as readonly Record<string, unknown>[]);
    case 'array':
      return arraySchema(samples as readonly unknown[][]);
    case 'string':
      return stringSchema(samples as readonly string[]);
    default:
      return { type: kind };
  }
}

function objectSchema(samples: readonly Record<string, unknown>[]): Schema {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const sample of samples)
    for (const key of Object.keys(sample)) {
      if (seen.has(key)) continue;
      seen.add(key);
      keys.push(key);
    }
  const properties: Record<string, Schema> = {};
  for (const key of keys) Object.defineProperty(properties, key, { value: inferSchema(samples.filter((sample) => Object.hasOwn(sample, key)).map((sample) => sample[key])), enumerable: true, writable: true, configurable: true });
  const required = keys.filter((key) => samples.every((sample) => Object.hasOwn(sample, key)));
  const closed = samples.every((sample) => Object.keys(sample).length === required.length);
  return { type: 'object', ...(keys.length === 0 ? {} : { properties }), ...(required.length === 0 ? {} : { required }), ...(closed ? { additionalProperties: false } : {}) };
}

function arraySchema(samples: readonly unknown[][]): Schema {
  const elements = samples.flat();
  const shortest = Math.min(...samples.map((sample) => sample.length));
  return { type: 'array', ...(elements.length === 0 ? {} : { items: inferSchema(elements) }), ...(shortest > 0 ? { minItems: shortest } : {}) };
}

function stringSchema(samples: readonly string[]): Schema {
  const distinct = [...new Set(samples)];
  return distinct.length <= maxEnumValues && distinct.length < samples.length ? { type: 'string', enum: distinct.sort() } : { type: 'string' };
}
