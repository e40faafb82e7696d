import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';
import { checkContracts } from '../../src/contract/check-contracts.js';
import { exportName, toolNameProblem, typeStem } from '../../src/contract/names.js';

const contract = (fields: Record<string, unknown>) => JSON.stringify({ name: 'a.b', description: 'D.', input: {}, output: {}, ...fields });
const codes = (text: string) => checkContract(text, 'x.contract.json').diagnostics.map((d) => d.code);

describe('checkContract', () => {
  it('returns the IR of a clean contract with its hash and position', () => {
    const result = checkContract(contract({ name: 'math.add' }), 'math.contract.json');
    expect(result.diagnostics).toEqual([]);
    expect(result.contract).toMatchObject({ name: 'math.add', description: 'D.', file: 'math.contract.json', exactNumbers: false, input: { kind: 'any' } });
    expect(result.contract?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the canonical form: key order and whitespace do not change it, content does', () => {
    const a = checkContract('{"name":"a.b","description":"D.","input":{"type":"array","maxItems":3},"output":{}}', 'a').contract!.hash;
    const b = checkContract('{ "output": {}, "input": { "maxItems": 3, "type": "array" },\n "description": "D.", "name": "a.b" }', 'b').contract!.hash;
    const c = checkContract('{"name":"a.b","description":"D.","input":{"type":"array","maxItems":4},"output":{}}', 'c').contract!.hash;
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it('reports every missing field', () => {
    expect(codes('{}')).toEqual(['JTC120', 'JTC120', 'JTC120', 'JTC120']);
  });

  it('requires string name and description', () => {
    expect(codes(contract({ name: 3, description: [] }))).toEqual(['JTC122', 'JTC123']);
  });

  it('accepts the optional $schema and rejects unknown fields', () => {
    expect(codes(contract({ $schema: 'https://example.com/s.json' }))).toEqual([]);
    expect(codes(contract({ tags: [] }))).toEqual(['JTC121']);
  });

  it('returns no IR when there is an error, and the IR with warnings', () => {
    expect(checkContract(contract({ input: { pattern: 'x' } }), 'x').contract).toBeUndefined();
    const warned = checkContract(contract({ input: { type: 'array', minLength: 1 } }), 'x');
    expect(warned.diagnostics.map((d) => d.severity)).toEqual(['warning']);
    expect(warned.contract).toBeDefined();
  });
});

describe('roots the runtime can take (JTC127)', () => {
  const rootCodes = (input: unknown, output: unknown = {}) => checkContract(contract({ input, output }), 'x').diagnostics.map((d) => `${d.code} ${d.pointer}`);
  it.each(['string', 'integer', 'number', 'boolean', 'null'])('refuses a root of type %s, on either side, at its type', (type) => {
    expect(rootCodes({ type })).toEqual(['JTC127 /input/type']);
    expect(rootCodes({}, { type, description: 'x' })).toEqual(['JTC127 /output/type']);
  });
  it('refuses a root enum of scalars only, at the enum', () => {
    expect(rootCodes({ enum: [1, 'a', null, true] })).toEqual(['JTC127 /input/enum']);
  });
  it('takes roots that can hold an object or an array', () => {
    for (const root of [{}, { type: 'object' }, { type: 'array' }, { enum: [1, { a: 1 }] }, { enum: [[1]] }, { properties: { a: { type: 'string' } } }]) expect(rootCodes(root, root)).toEqual([]);
    // An empty enum holds nothing at all: JTC204 says so.
    expect(rootCodes({ enum: [] })).toEqual(['JTC204 /input/enum']);
  });
  it('says why and what to do', () => {
    const [found] = checkContract(contract({ output: { type: 'string' } }), 'x').diagnostics;
    expect(found).toMatchObject({ code: 'JTC127', severity: 'error', message: 'the output root is of type "string", so it can never be a JSON object or array, the only values the runtime takes' });
    expect(found!.hint).toContain('wrap the value in an object');
  });
});

describe('tool names', () => {
  it.each(['math.add', 'github.create_pull_request', '_private.x-y', 'a', 'A1.b2'])('accepts %s', (name) => {
    expect(toolNameProblem(name)).toBeUndefined();
  });
  it.each(['', 'math add', '.a', 'a.', 'a..b', '1a', 'a.1b', 'a/b', 'x'.repeat(129)])('rejects %j', (name) => {
    expect(toolNameProblem(name)).toBeDefined();
  });
  it('derives type and export names', () => {
    expect(typeStem('github.create_pull_request')).toBe('GithubCreatePullRequest');
    expect(exportName('math.add')).toBe('mathAdd');
    expect(typeStem('a.b-c')).toBe(typeStem('a.b_c'));
  });
});

describe('names that give generated names that cannot work (JTC126) or collide by case (JTC125)', () => {
  const nameCodes = (name: string) => checkContract(contract({ name }), 'x').diagnostics.map((d) => d.code);
  it.each(['index', 'Index', '_1', '_9lives', '_', '__', '_-_', 'class', 'default', 'delete', 'con', 'con.get', 'NUL', 'lpt1.x', 'contracts', 'Contracts', '_contracts', 'svc.d.list', 'svc.d', 'a.b.d'])('refuses %j', (name) => {
    expect(nameCodes(name)).toEqual(['JTC126']);
  });
  it.each(['indexer', 'index.get', 'math.class', 'classify', 'console.log', '_a1', 'a._1', 'contracts.list', 'contract', 'd.list', 'svc.D.list', 'svc.dd.list', 'svc.d_.list'])('accepts %j', (name) => {
    expect(nameCodes(name)).toEqual([]);
  });
  it('refuses a second name that differs from another only in case', () => {
    const result = checkContracts([
      { file: 'one.contract.json', text: contract({ name: 'a.Bc' }) },
      { file: 'two.contract.json', text: contract({ name: 'a.bC' }) },
    ]);
    expect(result.diagnostics.map((d) => [d.file, d.code])).toEqual([['two.contract.json', 'JTC125']]);
    expect(result.diagnostics[0]!.message).toContain('differ only in case');
  });
});
