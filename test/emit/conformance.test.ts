import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../src/contract/check-contract.js';
import { compileSchema, realIssueMessages } from '../support/load-module.js';

/**
 * The official JSON-Schema-Test-Suite (draft 2020-12), sorted for the subset: see
 * test/conformance/README.md and its licence. `schemaText`/`dataText` keep exact number lexemes.
 */
interface Group {
  file: string;
  description: string;
  schemaText: string;
  tests?: { description: string; dataText: string; valid: boolean }[];
}

const load = (name: string): Group[] => JSON.parse(readFileSync(`test/conformance/suite-${name}.json`, 'utf8')) as Group[];

describe('JSON-Schema-Test-Suite: supported groups compile and pass', () => {
  describe.each(load('supported').map((g) => [`${g.file}: ${g.description}`, g] as const))('%s', (_, group) => {
    const validator = compileSchema(group.schemaText);
    it.each(group.tests!.map((t) => [t.description, t] as const))('%s', (__, test) => {
      const data: unknown = JSON.parse(test.dataText);
      expect(validator.is(data)).toBe(test.valid);
      const result = validator.validate(data);
      expect(result.ok).toBe(test.valid);
      if (!result.ok) expect(realIssueMessages(result).length).toBeGreaterThan(0);
    });
  });
});

describe.each(['rejected', 'boolean-schema'])('JSON-Schema-Test-Suite: %s groups are refused at build time', (name) => {
  it.each(load(name).map((g) => [`${g.file}: ${g.description}`, g] as const))('%s', (_, group) => {
    const result = checkContract(`{"name":"t.t","description":"D.","input":${group.schemaText},"output":{}}`, 't');
    expect(result.contract).toBeUndefined();
    // Refused for what the group tests, not only because a scalar root cannot reach the runtime (JTC127).
    expect(result.diagnostics.some((d) => d.severity === 'error' && d.code !== 'JTC127')).toBe(true);
  });
});
