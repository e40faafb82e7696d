import { describe, expect, it } from 'vitest';
import { compileSchema } from '../support/load-module.js';
import { referenceHolds, schemaText, type ReferenceSchema } from '../support/reference-validator.js';

/**
 * The pollution matrix of the validator research (December 2026): what a sound fast path must
 * decide as the value means as JSON while Object.prototype carries what a polluting library left
 * there. Every shape (open and closed; all properties required, which the check reads by name,
 * or some optional, which it reads in its key walk; names that are Object.prototype members),
 * alone, nested in an object and as an array item, meets every pollution with every kind of value,
 * and `is` and `validate` must both give the independent reference's verdict.
 */

type JsonType = 'string' | 'integer' | 'boolean';
interface Member {
  readonly name: string;
  readonly type: JsonType;
  readonly required: boolean;
}

const shapes: Record<string, readonly Member[]> = {
  'all required (read by name)': [
    { name: 'a', type: 'string', required: true },
    { name: 'n', type: 'integer', required: true },
  ],
  'some optional (read in the key walk)': [
    { name: 'a', type: 'string', required: true },
    { name: 'n', type: 'integer', required: true },
    { name: 'b', type: 'boolean', required: false },
  ],
  'Object.prototype members, required': [
    { name: 'constructor', type: 'string', required: true },
    { name: 'toString', type: 'integer', required: true },
  ],
  'Object.prototype members, optional': [
    { name: 'a', type: 'string', required: true },
    { name: 'constructor', type: 'string', required: false },
    { name: '__proto__', type: 'integer', required: false },
    { name: 'hasOwnProperty', type: 'boolean', required: false },
  ],
};

const sample: Record<JsonType, unknown> = { string: 'x', integer: 1, boolean: true };
const wrong: Record<JsonType, unknown> = { string: 1, integer: 'x', boolean: 'x' };

function schemaOf(members: readonly Member[], closed: boolean): ReferenceSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(members.map((m) => [m.name, { type: m.type }])),
    required: members.filter((m) => m.required).map((m) => m.name),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** An object with exactly these own enumerable data properties (`__proto__` included, as JSON.parse makes it). */
function own(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, item] of entries) Object.defineProperty(value, name, { value: item, enumerable: true, writable: true, configurable: true });
  return value;
}

/** The values each shape meets: valid ones, and each way of being almost valid. Fresh at every call. */
function valuesFor(members: readonly Member[]): [string, unknown][] {
  const required = members.filter((m) => m.required);
  const first = required[0]!;
  const full = members.map((m) => [m.name, sample[m.type]] as const);
  const minimal = required.map((m) => [m.name, sample[m.type]] as const);
  const without = minimal.filter(([name]) => name !== first.name);
  const withHidden = own(without);
  Object.defineProperty(withHidden, first.name, { value: sample[first.type], enumerable: false });
  // What a check that only counts keys would take: as many enumerable keys as declared names, and every name readable.
  const hiddenAndExtra = own([...without, ['zzz', 1]]);
  Object.defineProperty(hiddenAndExtra, first.name, { value: sample[first.type], enumerable: false });
  const withGetter = own(without);
  Object.defineProperty(withGetter, first.name, { get: () => sample[first.type], enumerable: true, configurable: true });
  const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, own(full));
  const inheritedFromOwnPrototype = Object.assign(Object.create(own([[first.name, sample[first.type]]])) as Record<string, unknown>, own(without));
  return [
    ['every property', own(full)],
    ['the required properties only', own(minimal)],
    [`no "${first.name}"`, own(without)],
    [`"${first.name}" of the wrong type`, own([...without, [first.name, wrong[first.type]]])],
    [`"${first.name}" own but not enumerable`, withHidden],
    [`"${first.name}" own but not enumerable, and an extra key`, hiddenAndExtra],
    [`"${first.name}" an own getter`, withGetter],
    [`"${first.name}" inherited from a prototype of its own`, inheritedFromOwnPrototype],
    ['an extra key', own([...full, ['zzz', 1]])],
    ['an extra key holding undefined', own([...full, ['zzz', undefined]])],
    ['an own "__proto__" key (JSON.parse)', JSON.parse(JSON.stringify(Object.fromEntries(full)).replace(/^\{/, '{"__proto__":1,'))],
    ['a null prototype', nullPrototype],
    ['a transparent Proxy', new Proxy(own(full), {})],
    [`a Proxy hiding "${first.name}" from its keys`, new Proxy(own(full), { ownKeys: (target) => Reflect.ownKeys(target).filter((key) => key !== first.name) })],
    [`a Proxy whose "${first.name}" read differs from its descriptor`, new Proxy(own(full), { get: (target, key) => (key === first.name ? wrong[first.type] : Reflect.get(target, key)) })],
  ];
}

/** A pollution of Object.prototype, put in place and taken back exactly (a member's own descriptor restored). */
interface Pollution {
  readonly label: string;
  readonly name: string;
  readonly descriptor: PropertyDescriptor;
}

function pollutionsFor(members: readonly Member[]): Pollution[] {
  const first = members.find((m) => m.required)!;
  const optional = members.find((m) => !m.required && m.name !== '__proto__');
  const data = (value: unknown, enumerable: boolean): PropertyDescriptor => ({ value, enumerable, writable: true, configurable: true });
  return [
    { label: `inherited required "${first.name}", enumerable`, name: first.name, descriptor: data(sample[first.type], true) },
    { label: `inherited required "${first.name}", not enumerable`, name: first.name, descriptor: data(sample[first.type], false) },
    { label: `inherited required "${first.name}", an enumerable getter`, name: first.name, descriptor: { get: () => sample[first.type], enumerable: true, configurable: true } },
    {
      label: `inherited required "${first.name}", a throwing getter`,
      name: first.name,
      descriptor: {
        get: () => {
          throw new Error('read');
        },
        enumerable: false,
        configurable: true,
      },
    },
    { label: 'an extra enumerable key', name: 'zzz', descriptor: data(1, true) },
    { label: 'an extra enumerable key that is not JSON', name: 'zzz', descriptor: data(() => 1, true) },
    ...(optional === undefined ? [] : [{ label: `inherited optional "${optional.name}" of the wrong type, enumerable`, name: optional.name, descriptor: data(wrong[optional.type], true) }]),
  ];
}

function withPollution<T>(pollution: Pollution, run: () => T): T {
  const before = Object.getOwnPropertyDescriptor(Object.prototype, pollution.name);
  Object.defineProperty(Object.prototype, pollution.name, pollution.descriptor);
  try {
    return run();
  } finally {
    if (before === undefined) delete (Object.prototype as Record<string, unknown>)[pollution.name];
    else Object.defineProperty(Object.prototype, pollution.name, before);
  }
}

interface Disagreement {
  readonly case: string;
  readonly expected: boolean;
  readonly is: boolean;
  readonly ok: boolean;
}

/** Every case of the matrix; the disagreements, split by which way they go. */
function runMatrix(): { cases: number; failOpen: Disagreement[]; overReject: Disagreement[] } {
  const failOpen: Disagreement[] = [];
  const overReject: Disagreement[] = [];
  let cases = 0;
  for (const [shapeName, members] of Object.entries(shapes)) {
    for (const closed of [false, true]) {
      const inner = schemaOf(members, closed);
      const placements: [string, ReferenceSchema, (value: unknown) => unknown][] = [
        ['alone', inner, (value) => value],
        ['nested', { type: 'object', properties: { outer: inner }, required: ['outer'], ...(closed ? { additionalProperties: false } : {}) }, (value) => ({ outer: value })],
        ['an array item', { type: 'array', items: inner }, (value) => [{ ...sample }, value].slice(1)],
      ];
      for (const [placement, schema, place] of placements) {
        const validator = compileSchema(schemaText(schema));
        for (const pollution of [undefined, ...pollutionsFor(members)]) {
          for (const [valueName] of valuesFor(members)) {
            // Built before the pollution, so that building it cannot be what the pollution changes.
            const value = place(valuesFor(members).find(([name]) => name === valueName)![1]);
            const judge = () => ({ expected: referenceHolds(schema, value), is: validator.is(value), ok: validator.validate(value).ok });
            const verdict = pollution === undefined ? judge() : withPollution(pollution, judge);
            cases++;
            const label = `${shapeName}, ${closed ? 'closed' : 'open'}, ${placement}; ${pollution?.label ?? 'no pollution'}; ${valueName}`;
            if (verdict.is !== verdict.expected || verdict.ok !== verdict.expected) (verdict.expected ? overReject : failOpen).push({ case: label, ...verdict });
          }
        }
      }
    }
  }
  return { cases, failOpen, overReject };
}

describe('the pollution matrix: a polluted Object.prototype changes no verdict', () => {
  it('0 fail-open and 0 over-reject against the reference, open and closed, alone, nested and as an array item', () => {
    const { cases, failOpen, overReject } = runMatrix();
    expect(cases).toBeGreaterThan(1_000);
    expect({ failOpen, overReject }).toEqual({ failOpen: [], overReject: [] });
  });

  it('the reference itself tells the polluted cases apart (the matrix is not trivially agreed)', () => {
    const members = shapes['all required (read by name)']!;
    const schema = schemaOf(members, true);
    const missing = own([['n', 1]]);
    const valid = own([
      ['a', 'x'],
      ['n', 1],
    ]);
    const [inheritedA, extraKey] = [pollutionsFor(members)[0]!, pollutionsFor(members)[4]!];
    expect(withPollution(inheritedA, () => [referenceHolds(schema, missing), 'a' in missing])).toEqual([false, true]);
    expect(withPollution(extraKey, () => [referenceHolds(schema, valid), Object.keys(valid).length])).toEqual([true, 2]);
  });
});
