import fc from 'fast-check';

/** A JSON Schema inside the contract subset, as a plain object. */
export type Schema = Record<string, unknown>;

const propertyName = fc.oneof(
  fc.constantFrom('a', 'b', 'name', 'id', '__proto__', 'constructor', 'toString', '', 'x y', 'quote"', 'back\\slash', '*/', '\u2028', '😀'),
  fc.string({ maxLength: 6 }),
);
const smallCount = fc.integer({ min: 0, max: 6 });
const bound = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 0.1, -0.5, 1e21, 2 ** 53));
const jsonScalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 4 }));
const annotations = fc.record({ title: fc.string({ maxLength: 8 }), description: fc.string({ maxLength: 12 }), examples: fc.array(jsonScalar, { maxLength: 2 }) }, { requiredKeys: [] });

function optionalRecord(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Schema> {
  return fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Schema>;
}

/**
 * Schemas of the subset, `depth` levels deep at most; keywords only where they apply. ajv refuses
 * an empty enum, which the subset allows, hence `nonEmptyEnum` for differential tests.
 */
export function subsetSchema(depth = 3, options: { nonEmptyEnum?: boolean } = {}): fc.Arbitrary<Schema> {
  const { schema } = fc.letrec<{ schema: Schema }>((tie) => {
    const child = (): fc.Arbitrary<Schema> => (depth <= 0 ? fc.constant({ type: 'string' }) : (tie('schema') as fc.Arbitrary<Schema>));
    const stringRules = optionalRecord({ minLength: smallCount, maxLength: smallCount });
    const numberRules = optionalRecord({ minimum: bound, maximum: bound });
    const arrayRules = optionalRecord({ items: child(), minItems: smallCount, maxItems: smallCount });
    const objectRules = fc
      .tuple(fc.uniqueArray(propertyName, { maxLength: 4 }), fc.boolean(), fc.option(fc.boolean(), { nil: undefined }))
      .chain(([names, withRequired, additional]) =>
        fc.tuple(fc.array(child(), { minLength: names.length, maxLength: names.length }), fc.subarray(names)).map(([schemas, required]) => {
          const rules: Schema = { properties: Object.fromEntries(names.map((n, i) => [n, schemas[i]])) };
          if (withRequired) rules['required'] = required;
          if (additional !== undefined) rules['additionalProperties'] = additional;
          return rules;
        }),
      );
    const typed = fc.oneof(
      fc.constant({ type: 'null' }),
      fc.constant({ type: 'boolean' }),
      numberRules.map((r) => ({ type: 'number', ...r })),
      numberRules.map((r) => ({ type: 'integer', ...r })),
      stringRules.map((r) => ({ type: 'string', ...r })),
      arrayRules.map((r) => ({ type: 'array', ...r })),
      objectRules.map((r) => ({ type: 'object', ...r })),
      fc.tuple(stringRules, numberRules, objectRules).map(([s, n, o]) => ({ ...s, ...n, ...o })),
      fc.array(fc.oneof(jsonScalar, fc.array(jsonScalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('k', 'v'), jsonScalar, { maxKeys: 2 })), { minLength: options.nonEmptyEnum ? 1 : 0, maxLength: 4 }).map((values) => ({ enum: values })),
      fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }).map((values) => ({ type: 'string', enum: values })),
    );
    return { schema: fc.tuple(typed, annotations).map(([s, a]) => ({ ...a, ...s })) };
  });
  return schema;
}

/** Values close to what a schema accepts: mostly valid shapes, with values near each bound. */
export function nearInstance(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 2 });
  if (depth > 6) return anything;
  const options: fc.Arbitrary<unknown>[] = [anything];
  if (Array.isArray(schema['enum'])) options.push(fc.constantFrom(...(schema['enum'] as unknown[]).concat([null])));
  const n = (key: string): number | undefined => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const near = (value: number | undefined): number[] => (value === undefined ? [] : [value - 1, value, value + 1, value - 0.5, value + 0.5]);
  options.push(fc.constantFrom(0, 1, 1.5, -1, ...near(n('minimum')), ...near(n('maximum'))));
  const lengths = [...near(n('minLength')), ...near(n('maxLength'))].filter((l) => Number.isInteger(l) && l >= 0);
  options.push(fc.constantFrom(0, 1, 2, ...lengths).chain((length) => fc.string({ minLength: length, maxLength: length, unit: fc.constantFrom('a', 'é', '😀', '\uD800') })));
  const items = schema['items'] as Schema | undefined;
  options.push(fc.array(items === undefined ? anything : nearInstance(items, depth + 1), { maxLength: Math.max(3, (n('maxItems') ?? 0) + 1) }));
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const entries = Object.entries(properties).map(([key, value]) => fc.option(nearInstance(value, depth + 1), { nil: undefined, freq: 4 }).map((v) => [key, v] as const));
  options.push(
    fc.tuple(fc.tuple(...entries), fc.option(fc.constantFrom('extra', 'toString', '__proto__'), { nil: undefined, freq: 3 })).map(([pairs, extra]) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of pairs) if (value !== undefined) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      if (extra !== undefined) Object.defineProperty(object, extra, { value: 1, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  );
  return fc.oneof(...options);
}
