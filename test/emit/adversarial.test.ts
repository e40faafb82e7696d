import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compileContracts } from '../../src/compiler.js';
import { compileContract, loadModule } from '../support/load-module.js';

const file = 'fixtures/valid/adversarial.names.contract.json';
const source = readFileSync(file, 'utf8');
const parsed = JSON.parse(source) as { description: string; input: { properties: Record<string, unknown> } };
const names = Object.keys(parsed.input.properties);

describe('adversarial names, descriptions and enum strings', () => {
  const module = compileContracts([{ file, text: source }]).files.find((f) => f.path === 'adversarial.names.ts')!.text;

  it('never end a comment early or leave a raw line separator in the code', () => {
    // The TypeScript scanner finds where each comment really ends; a description whose "*/" was
    // written raw would end its comment early and leave the rest of the text as code.
    const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, module);
    const comments: string[] = [];
    for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
      if (token === ts.SyntaxKind.MultiLineCommentTrivia) comments.push(scanner.getTokenText());
    }
    const commentText = comments
      .map((c) =>
        c
          .slice(2, -2)
          .replace(/^\s*\* ?/gm, '')
          .replace(/\*\\\//g, '*/'),
      )
      .join('\n');
    const descriptions = Object.values(parsed.input.properties).map((p) => (p as { description: string }).description);
    for (const description of descriptions) {
      for (const line of description.split(/[\n\u2028\u2029]/)) expect(commentText).toContain(line.trimEnd());
    }
    const syntax = ts.transpileModule(module, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } }).diagnostics ?? [];
    expect(syntax.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    expect(module).not.toMatch(/[\u2028\u2029]/);
  });

  it('produce a module that loads and keeps every name and the description intact', () => {
    const { contract } = loadModule<{ contract: { name: string; description: string; inputSchema: { properties: Record<string, unknown> } } }>(module);
    expect(contract.description).toBe(parsed.description);
    expect(Object.keys(contract.inputSchema.properties)).toEqual(names);
    expect(Object.getPrototypeOf(contract.inputSchema.properties)).toBe(Object.prototype);
  });

  it('validate each property under its exact name', () => {
    const contract = compileContract(source, file);
    const valid = JSON.parse(JSON.stringify(Object.fromEntries(names.map((n) => [n, n])))) as Record<string, unknown>;
    expect(contract.input.is(valid)).toBe(true);
    for (const name of names) {
      const wrong = JSON.parse(JSON.stringify({ ...valid, [name]: 'not allowed' })) as unknown;
      expect({ name, ok: contract.input.is(wrong) }).toEqual({ name, ok: false });
      const result = contract.input.validate(wrong);
      expect(!result.ok && result.issues.map((i) => i.path)).toEqual([[name]]);
    }
    for (const required of ['__proto__', '', 'toString']) {
      const without = JSON.parse(JSON.stringify(Object.fromEntries(names.filter((n) => n !== required).map((n) => [n, n])))) as unknown;
      const result = contract.input.validate(without);
      expect(!result.ok && result.issues.map((i) => i.params)).toEqual([{ missingProperty: required }]);
    }
  });

  it('accept an own __proto__ property on output and never touch any prototype', () => {
    const contract = compileContract(source, file);
    const prototypeNames = Object.getOwnPropertyNames(Object.prototype);
    const inner = JSON.parse('{"__proto__": "x"}') as object;
    const value = JSON.parse('{"__proto__": {"__proto__": "x"}, "constructor": 1}') as Record<string, unknown>;
    expect(contract.output.is(value)).toBe(true);
    expect(contract.output.validate(value).ok).toBe(true);
    expect(contract.output.is(JSON.parse('{"__proto__": {"__proto__": 1}}'))).toBe(false);
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeNames);
    expect([Object.getPrototypeOf(value), Object.getPrototypeOf(value['__proto__'])]).toEqual([Object.prototype, Object.prototype]);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual(inner);
  });
});
