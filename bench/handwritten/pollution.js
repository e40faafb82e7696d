// The pollution matrix of test/emit/pollution-matrix.test.ts, at the root of a corpus schema: its
// pollutions of Object.prototype, each with its kinds of almost-valid values, built from a valid
// sample. The test holds our validators to an independent reference on these cases; here our
// verdict is the reference for the hand-written ones. In the labels, R is the root's first
// required property and O its first optional one.

/** An object with exactly these own enumerable data properties (`__proto__` included, as JSON.parse makes it). */
function own(entries) {
  const value = {};
  for (const [name, item] of entries) Object.defineProperty(value, name, { value: item, enumerable: true, writable: true, configurable: true });
  return value;
}

/** A value of another type than the property's schema holds, or undefined for a schema without a type. */
function wrongFor(schema) {
  if (schema?.type === undefined) return undefined;
  return schema.type === 'string' ? 1 : 'x';
}

/** The values the matrix builds, from a valid `sample` of `schema`; `first` is its first required property. Fresh at every call. */
function valuesFor(schema, sample, first) {
  const required = new Set(schema.required ?? []);
  const full = Object.entries(sample);
  const text = JSON.stringify(sample);
  const values = [
    ['every property', own(full)],
    ['the required properties only', own(full.filter(([name]) => required.has(name)))],
    ['an extra key', own([...full, ['zzz', 1]])],
    ['an extra key holding undefined', own([...full, ['zzz', undefined]])],
    ['an own "__proto__" key (JSON.parse)', JSON.parse(text === '{}' ? '{"__proto__":1}' : text.replace(/^\{/, '{"__proto__":1,'))],
    ['a null prototype', Object.assign(Object.create(null), own(full))],
    ['a transparent Proxy', new Proxy(own(full), {})],
  ];
  if (first === undefined) return values;
  const firstValue = sample[first];
  const without = full.filter(([name]) => name !== first);
  const withHidden = own(without);
  Object.defineProperty(withHidden, first, { value: firstValue, enumerable: false });
  // What a check that only counts keys would take: as many enumerable keys as declared names, and every name readable.
  const hiddenAndExtra = own([...without, ['zzz', 1]]);
  Object.defineProperty(hiddenAndExtra, first, { value: firstValue, enumerable: false });
  const withGetter = own(without);
  Object.defineProperty(withGetter, first, { get: () => firstValue, enumerable: true, configurable: true });
  const wrong = wrongFor(schema.properties[first]);
  return [
    ...values,
    [`no "R"`, own(without)],
    ...(wrong === undefined ? [] : [[`"R" of the wrong type`, own([...without, [first, wrong]])]]),
    [`"R" own but not enumerable`, withHidden],
    [`"R" own but not enumerable, and an extra key`, hiddenAndExtra],
    [`"R" an own getter`, withGetter],
    [`"R" inherited from a prototype of its own`, Object.assign(Object.create(own([[first, firstValue]])), own(without))],
    [`a Proxy hiding "R" from its keys`, new Proxy(own(full), { ownKeys: (target) => Reflect.ownKeys(target).filter((key) => key !== first) })],
    ...(wrong === undefined ? [] : [[`a Proxy whose "R" read differs from its descriptor`, new Proxy(own(full), { get: (target, key) => (key === first ? wrong : Reflect.get(target, key)) })]]),
  ];
}

/** The matrix's pollutions of Object.prototype for this schema, each put in place and taken back exactly. */
function pollutionsFor(schema, sample, first) {
  const data = (value, enumerable) => ({ value, enumerable, writable: true, configurable: true });
  const pollutions = [
    { label: 'an extra enumerable key', name: 'zzz', descriptor: data(1, true) },
    { label: 'an extra enumerable key that is not JSON', name: 'zzz', descriptor: data(() => 1, true) },
  ];
  if (first !== undefined) {
    const firstValue = sample[first];
    const throwing = () => {
      throw new Error('read');
    };
    pollutions.unshift(
      { label: `inherited required "R", enumerable`, name: first, descriptor: data(firstValue, true) },
      { label: `inherited required "R", not enumerable`, name: first, descriptor: data(firstValue, false) },
      { label: `inherited required "R", an enumerable getter`, name: first, descriptor: { get: () => firstValue, enumerable: true, configurable: true } },
      { label: `inherited required "R", a throwing getter`, name: first, descriptor: { get: throwing, enumerable: false, configurable: true } },
    );
  }
  const required = new Set(schema.required ?? []);
  const optional = Object.keys(schema.properties ?? {}).find((name) => !required.has(name) && name !== '__proto__' && wrongFor(schema.properties[name]) !== undefined);
  if (optional !== undefined) pollutions.push({ label: `inherited optional "O" of the wrong type, enumerable`, name: optional, descriptor: data(wrongFor(schema.properties[optional]), true) });
  return pollutions;
}

function withPollution(pollution, run) {
  const before = Object.getOwnPropertyDescriptor(Object.prototype, pollution.name);
  Object.defineProperty(Object.prototype, pollution.name, pollution.descriptor);
  try {
    return run();
  } finally {
    if (before === undefined) delete Object.prototype[pollution.name];
    else Object.defineProperty(Object.prototype, pollution.name, before);
  }
}

/** A validator's verdict, or what it threw. */
export const verdictOf = (is, value) => {
  try {
    return is(value);
  } catch (error) {
    return `threw ${error}`;
  }
};

/**
 * Every case of the matrix for one schema: each validator's verdict beside ours, under no
 * pollution and under each pollution, for each kind of value. `validators` maps a name to an `is`.
 */
export function judgeMatrix(schema, sample, ours, validators) {
  const first = (schema.required ?? []).find((name) => Object.hasOwn(schema.properties ?? {}, name));
  const cases = [];
  for (const pollution of [undefined, ...pollutionsFor(schema, sample, first)]) {
    for (const [valueName] of valuesFor(schema, sample, first)) {
      // Built before the pollution, so that building it cannot be what the pollution changes.
      const value = valuesFor(schema, sample, first).find(([name]) => name === valueName)[1];
      const judge = () => ({ expected: verdictOf(ours, value), verdicts: Object.fromEntries(Object.entries(validators).map(([name, is]) => [name, verdictOf(is, value)])) });
      const { expected, verdicts } = pollution === undefined ? judge() : withPollution(pollution, judge);
      cases.push({ pollution: pollution?.label ?? 'no pollution', value: valueName, expected, verdicts });
    }
  }
  return cases;
}
