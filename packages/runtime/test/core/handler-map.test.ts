import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { mathAdd, notesSearch } from '../../../../examples/generated/index.js';
import { strictOptions } from '../../../../test/support/typecheck.js';
import { CapabilityRuntime, RegistrationError, ToolMetadata, ToolPolicy, type HandlerMap, type ToolRequest } from '../../src/index.js';

const contracts = { mathAdd, notesSearch };
const hits = { hits: [{ id: 'n1', score: 1 }] };

describe('registerAll', () => {
  it('registers every tool of the set under its contract name; a handler gets the typed input and its request', () => {
    const runtime = new CapabilityRuntime();
    const requests: ToolRequest<unknown>[] = [];
    runtime.registerAll(contracts, {
      mathAdd: ({ left, right }, request) => {
        requests.push(request);
        return { total: left + right };
      },
      notesSearch: { handler: () => hits, budget: 1, metadata: ToolMetadata.of('Finds notes.') },
    });
    expect(runtime.call('math.add', { left: 2, right: 3 })).toEqual({ ok: true, callId: 'call-1', output: { total: 5 } });
    expect(requests).toMatchObject([{ tool: 'math.add', callId: 'call-1', input: { left: 2, right: 3 }, context: undefined }]);
    expect(runtime.call('notes.search', { query: 'milk' })).toMatchObject({ ok: true, output: hits });
    expect(runtime.call('notes.search', { query: 'milk' })).toMatchObject({ ok: false, error: { code: 'budget_exhausted' } });
    expect(runtime.catalog().map(({ name, description }) => ({ name, description }))).toEqual([
      { name: 'math.add', description: mathAdd.description },
      { name: 'notes.search', description: 'Finds notes.' },
    ]);
  });

  it('marks protocol tools in the same map: completed from outside, with their budget', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerAll(contracts, { mathAdd: ({ left, right }) => ({ total: left + right }), notesSearch: { protocol: true, budget: 1 } });
    expect(runtime.call('notes.search', { query: 'milk' })).toMatchObject({ ok: false });
    const search = runtime.defer('notes.search', { query: 'milk' });
    expect(search.state).toBe('pending');
    runtime.complete(search.callId, hits);
    expect(await search.result).toMatchObject({ ok: true, output: hits });
    expect(runtime.defer('notes.search', { query: 'eggs' }).state).toBe('done');
  });

  it("keeps the single registrations' rules for async handlers: call refuses them before they run, callAsync awaits them", async () => {
    const runtime = new CapabilityRuntime();
    let runs = 0;
    runtime.registerAll(contracts, {
      mathAdd: async ({ left, right }) => {
        runs++;
        return { total: left + right };
      },
      notesSearch: { protocol: true },
    });
    expect(runtime.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'asynchronous_handler' } });
    expect(runs).toBe(0);
    expect(await runtime.callAsync('math.add', { left: 1, right: 1 })).toMatchObject({ ok: true, output: { total: 2 } });
    expect(await runtime.callAsync('math.add', { left: 1, right: '1' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(runs).toBe(1);
  });

  /** What plain JavaScript or a cast can pass: each is refused whole, naming the tool, and registers nothing. */
  it.each([
    ['a missing entry', { mathAdd: () => ({ total: 1 }) }, /notesSearch \("notes\.search"\) has no entry/],
    ['an extra entry', { mathAdd: () => ({ total: 1 }), notesSearch: { protocol: true }, mathSub: () => ({}) }, /no contract in the set for "mathSub"/],
    ['an entry that is neither', { mathAdd: 42, notesSearch: { protocol: true } }, /mathAdd \("math\.add"\) needs a handler function/],
    ['an options object without a handler', { mathAdd: { budget: 2 }, notesSearch: { protocol: true } }, /mathAdd \("math\.add"\) needs a handler function or \{ protocol: true \}, got handler undefined/],
    ['a protocol tool with a handler', { mathAdd: () => ({ total: 1 }), notesSearch: { protocol: true, handler: () => hits } }, /notesSearch \("notes\.search"\) is a protocol tool with a handler/],
    ['a misspelt option', { mathAdd: { handler: () => ({ total: 1 }), budgte: 2 }, notesSearch: { protocol: true } }, /mathAdd \("math\.add"\) has unknown option "budgte"/],
    ['a fractional budget', { mathAdd: { handler: () => ({ total: 1 }), budget: 1.5 }, notesSearch: { protocol: true } }, /mathAdd \("math\.add"\) has budget 1\.5: a call budget is a whole number/],
    ['metadata that is not ToolMetadata', { mathAdd: { handler: () => ({ total: 1 }), metadata: 'Adds.' }, notesSearch: { protocol: true } }, /mathAdd \("math\.add"\) has metadata Adds\.: use ToolMetadata\.of/],
    ['a protocol flag that is not true', { mathAdd: { handler: () => ({ total: 1 }), protocol: 'yes' }, notesSearch: { protocol: true } }, /mathAdd \("math\.add"\) has protocol yes/],
  ])('refuses %s', (_, handlers, message) => {
    const runtime = new CapabilityRuntime();
    expect(() => runtime.registerAll(contracts, handlers as unknown as HandlerMap<typeof contracts>)).toThrow(message);
    expect(runtime.catalog()).toEqual([]);
  });

  it('lists every problem at once', () => {
    const runtime = new CapabilityRuntime();
    const refused = (): void => runtime.registerAll(contracts, { mathAdd: { protocol: true, budget: -1 }, extra: 1 } as never);
    expect(refused).toThrow(RegistrationError);
    expect(refused).toThrow(/^registerAll registered nothing: no contract in the set for "extra"; mathAdd \("math\.add"\) has budget -1: .*; notesSearch \("notes\.search"\) has no entry$/);
  });

  it('refuses name clashes within the set and with tools already registered, registering nothing', () => {
    const runtime = new CapabilityRuntime();
    expect(() => runtime.registerAll({ mathAdd, sum: mathAdd }, { mathAdd: () => ({ total: 1 }), sum: () => ({ total: 2 }) })).toThrow(/sum \("math\.add"\) has the same tool name as mathAdd/);
    expect(runtime.catalog()).toEqual([]);
    runtime.registerTypedJsonTool(ToolPolicy.json('notes.search'), notesSearch, () => hits);
    expect(() => runtime.registerAll(contracts, { mathAdd: () => ({ total: 1 }), notesSearch: { protocol: true } })).toThrow(/notesSearch \("notes\.search"\) is already registered/);
    expect(runtime.catalog().map((entry) => entry.name)).toEqual(['notes.search']);
  });

  /** Hostile shapes a map or a set can take: each is a RegistrationError naming what could not be read, and nothing is registered. */
  const revoked = (): object => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwing = (what: string) => () => {
    throw new Error(`${what} throws`);
  };
  it.each([
    ['a revoked proxy as the map', () => [contracts, revoked()], /^registerAll registered nothing: the contract set or the handler map cannot be read \(a getter or proxy threw\): Cannot perform 'ownKeys' on a proxy that has been revoked$/],
    ['a revoked proxy as the set', () => [revoked(), {}], /^registerAll registered nothing: the contract set or the handler map cannot be read .*revoked/],
    ['a map whose keys trap throws', () => [contracts, new Proxy({}, { ownKeys: throwing('ownKeys') })], /cannot be read \(a getter or proxy threw\): ownKeys throws$/],
    [
      'a throwing getter for an entry',
      () => [
        contracts,
        {
          get mathAdd() {
            return throwing('the mathAdd getter')();
          },
          notesSearch: { protocol: true },
        },
      ],
      /^registerAll registered nothing: mathAdd \("math\.add"\) cannot be read \(a getter or proxy threw\): the mathAdd getter throws$/,
    ],
    [
      'a throwing handler getter',
      () => [
        contracts,
        {
          mathAdd: {
            get handler() {
              return throwing('handler')();
            },
          },
          notesSearch: { protocol: true },
        },
      ],
      /mathAdd \("math\.add"\) cannot be read \(a getter or proxy threw\): handler throws$/,
    ],
    ['a revoked proxy as an entry', () => [contracts, { mathAdd: revoked(), notesSearch: { protocol: true } }], /mathAdd \("math\.add"\) cannot be read .*revoked/],
    [
      'a throwing getter for a contract',
      () => [
        {
          mathAdd,
          get notesSearch() {
            return throwing('the notesSearch getter')();
          },
        },
        { mathAdd: () => ({ total: 1 }), notesSearch: { protocol: true } },
      ],
      /^registerAll registered nothing: "notesSearch" cannot be read \(a getter or proxy threw\): the notesSearch getter throws$/,
    ],
    [
      'a thrown value that cannot be described',
      () => [
        contracts,
        {
          mathAdd: {
            get handler() {
              throw revoked();
            },
          },
          notesSearch: { protocol: true },
        },
      ],
      /mathAdd \("math\.add"\) cannot be read \(a getter or proxy threw\): a value that cannot be turned into text$/,
    ],
  ])('refuses %s with a RegistrationError, registering nothing', (_, shape, message) => {
    const runtime = new CapabilityRuntime();
    const [set, map] = shape();
    let refusal: unknown;
    try {
      runtime.registerAll(set as never, map as never);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(RegistrationError);
    expect((refusal as Error).message).toMatch(message);
    expect(runtime.catalog()).toEqual([]);
  });

  it('registers nothing when a contract reads differently once registration starts', () => {
    const runtime = new CapabilityRuntime();
    let reads = 0;
    // Its name reads "notes.search" while the map is checked, then throws: math.add was registered already and goes again.
    const shifting = new Proxy(notesSearch, { get: (target, key) => (key === 'name' && ++reads > 2 ? throwing('the third name read')() : Reflect.get(target, key)) });
    expect(() => runtime.registerAll({ mathAdd, notesSearch: shifting }, { mathAdd: () => ({ total: 1 }), notesSearch: { protocol: true } })).toThrow(RegistrationError);
    expect(runtime.catalog()).toEqual([]);
    expect(runtime.call('math.add', { left: 1, right: 1 })).toMatchObject({ ok: false, error: { code: 'unknown_tool' } });
  });

  it('refuses what is not a contract set or a map', () => {
    const runtime = new CapabilityRuntime();
    expect(() => runtime.registerAll(null as never, {} as never)).toThrow(/expects the contract set/);
    expect(() => runtime.registerAll(contracts, undefined as never)).toThrow(/expects an object of handlers/);
    expect(() => runtime.registerAll({ mathAdd: 'math.add' } as never, { mathAdd: () => ({ total: 1 }) } as never)).toThrow(/"mathAdd" is not a contract/);
  });
});

/**
 * The compile-time half: each map below is compiled with tsc under the strictest settings; the good
 * one compiles, each bad one fails with an error (as tsc prints it, with its related information)
 * that names the tool by its export name, its type names or its tool name.
 */
describe('registerAll under tsc', () => {
  const index = resolve('examples/generated/index.js');
  const runtimeSource = resolve('packages/runtime/src/index.js');
  const header = `import { CapabilityRuntime, ToolMetadata } from ${JSON.stringify(runtimeSource)};\nimport { contracts as all, mathAdd, notesSearch } from ${JSON.stringify(index)};\nvoid all;\nconst runtime = new CapabilityRuntime();\nconst contracts = { mathAdd, notesSearch };\nvoid ToolMetadata;\nvoid contracts;\n`;
  const maps: Record<string, { readonly map: string; readonly set?: string; readonly names?: readonly string[] }> = {
    good: { map: `{ mathAdd: ({ left, right }, request) => ({ total: left + right + request.callId.length }), notesSearch: { handler: async (input) => ({ hits: [{ id: input.query, score: 1 }] }), budget: 3, metadata: ToolMetadata.of('Finds.') } }` },
    goodProtocol: { map: `{ mathAdd: { handler: ({ left }) => ({ total: left }) }, notesSearch: { protocol: true } }` },
    missing: { map: `{ mathAdd: ({ left, right }) => ({ total: left + right }) }`, names: ['notesSearch'] },
    extra: { map: `{ mathAdd: ({ left, right }) => ({ total: left + right }), notesSearch: { protocol: true }, mathSub: () => ({ total: 0 }) }`, names: ['mathSub'] },
    wrongOutput: { map: `{ mathAdd: () => ({ total: 'five' }), notesSearch: { protocol: true } }`, names: ['math.add', 'MathAddOutput'] },
    // A misspelt field, sync or async: tsc names the output type beside withContent's, and stops there.
    wrongAsyncOutput: { map: `{ mathAdd: { handler: async () => ({ sum: 5 }), budget: 2 }, notesSearch: { protocol: true } }`, names: ['math.add', 'MathAddOutput', 'MathAddOutput | OutputWithContent<MathAddOutput>'] },
    wrongInputType: { map: `{ mathAdd: (input: { left: string }) => ({ total: input.left.length }), notesSearch: { protocol: true } }`, names: ['math.add', 'MathAddInput'] },
    otherToolsInput: { map: `{ mathAdd: (input: Parameters<typeof notesSearch.input.is>[0] & { query: string }) => ({ total: input.query.length }), notesSearch: { protocol: true } }`, names: ['math.add'] },
    unknownInputProperty: { map: `{ mathAdd: (input) => ({ total: input.middle }), notesSearch: { protocol: true } }`, names: ['MathAddInput'] },
    protocolWithHandler: { map: `{ mathAdd: () => ({ total: 1 }), notesSearch: { protocol: true, handler: () => ({ hits: [] }) } }`, names: ['notesSearch', 'notes.search'] },
    wholeIndex: { map: `{ adversarialNames: { protocol: true }, limitsAtLimit: { protocol: true }, mathAdd: ({ left, right }) => ({ total: left + right }), notesSearch: { protocol: true } }`, set: 'all' },
    wholeIndexMissing: { map: `{ adversarialNames: { protocol: true }, mathAdd: ({ left, right }) => ({ total: left + right }), notesSearch: { protocol: true } }`, set: 'all', names: ['limitsAtLimit'] },
    budgetAsText: { map: `{ mathAdd: { handler: () => ({ total: 1 }), budget: '3' }, notesSearch: { protocol: true } }`, names: ['math.add'] },
  };

  it('compiles the good maps and fails each bad one with an error that names its tool', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-handler-map-'));
    const files = Object.entries(maps).map(([name, { map, set = 'contracts' }]) => {
      const file = join(dir, `${name}.ts`);
      writeFileSync(file, `${header}runtime.registerAll(${set}, ${map});\n`);
      return file;
    });
    const program = ts.createProgram(files, strictOptions);
    const errorsOf = (name: string): string[] => ts.getPreEmitDiagnostics(program, program.getSourceFile(join(dir, `${name}.ts`))).map((d) => [ts.flattenDiagnosticMessageText(d.messageText, '\n'), ...(d.relatedInformation ?? []).map((r) => ts.flattenDiagnosticMessageText(r.messageText, '\n'))].join('\n'));
    for (const [name, { names }] of Object.entries(maps)) {
      const errors = errorsOf(name);
      if (names === undefined) {
        expect(errors, name).toEqual([]);
        continue;
      }
      expect(errors.length, name).toBeGreaterThan(0);
      for (const error of errors)
        expect(
          names.some((tool) => error.includes(`'${tool}'`) || error.includes(`"${tool}"`)),
          `${name}: ${error}`,
        ).toBe(true);
    }
  });
});

/**
 * Where tsc's explanation ends for a handler whose output has a field of the wrong type: at the
 * field, for sync and async handlers alike, with and without `withContent`, registered one by one
 * or in a map (an async `withContent` handler's error used to end at "property missing in
 * OutputWithContent").
 */
describe('a wrong output field under tsc', () => {
  const handlers = {
    sync: `() => ({ total: 'five' })`,
    async: `async () => ({ total: 'five' })`,
    syncWithContent: `() => withContent({ total: 'five' }, [])`,
    asyncWithContent: `async () => withContent({ total: 'five' }, [{ type: 'text', text: 'five' }])`,
    asyncEither: `async (input: { left: number }) => (input.left > 0 ? withContent({ total: 'five' }, []) : { total: 5 })`,
  };

  it('ends the error at the field, for every handler form and both registrations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jtc-wrong-field-'));
    const header = `import { CapabilityRuntime, ToolPolicy, withContent } from ${JSON.stringify(resolve('packages/runtime/src/index.js'))};\nimport { mathAdd } from ${JSON.stringify(resolve('examples/generated/index.js'))};\nconst runtime = new CapabilityRuntime();\nvoid withContent;\nvoid ToolPolicy;\n`;
    const registrations = Object.entries(handlers).flatMap(([name, handler]) => [
      [`${name}-typed`, `runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, ${handler});`],
      [`${name}-map`, `runtime.registerAll({ mathAdd }, { mathAdd: ${handler} });`],
      [`${name}-entry`, `runtime.registerAll({ mathAdd }, { mathAdd: { handler: ${handler}, budget: 2 } });`],
    ]);
    const files = registrations.map(([name, line]) => {
      const file = join(dir, `${name}.ts`);
      writeFileSync(file, `${header}${line}\n`);
      return file;
    });
    const program = ts.createProgram(files, strictOptions);
    for (const [index, [name]] of registrations.entries()) {
      const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(files[index]!)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors.length, name).toBe(1);
      const lines = errors[0]!.split('\n').map((line) => line.trim());
      // Reported at the field itself (a sync arrow's literal), or explained down to it.
      const end = lines.length === 1 ? ["Types of property 'total' are incompatible.", ...lines] : lines.slice(-2);
      expect(end, `${name}: ${errors[0]}`).toEqual(["Types of property 'total' are incompatible.", "Type 'string' is not assignable to type 'number'."]);
    }
  });
});
