import ts from 'typescript';
import { compileContracts } from '../../src/compiler.js';

/**
 * Evaluates a generated TypeScript module in memory. Generated modules import nothing, so
 * transpiling to CommonJS and running the text is all it takes (tests only: the product itself
 * never evaluates code).
 */
export function loadModule<T = Record<string, unknown>>(source: string): T {
  const js = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS } }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', js)(module, module.exports);
  return module.exports as T;
}

export interface LoadedValidator {
  is(value: unknown): boolean;
  validate(value: unknown): { ok: true; value: unknown } | { ok: false; issues: Issue[]; truncated: boolean };
  '~standard': {
    version: 1;
    vendor: string;
    validate(value: unknown): { value: unknown; issues?: undefined } | { issues: { message: string; path: (string | number)[] }[] };
    jsonSchema: { input(options: { target: string }): Record<string, unknown>; output(options: { target: string }): Record<string, unknown> };
  };
}

export interface Issue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
  path: (string | number)[];
}

export interface LoadedContract {
  name: string;
  description: string;
  exactNumbers: boolean;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  input: LoadedValidator;
  output: LoadedValidator;
}

/** Compiles one contract text and loads its module; throws with the diagnostics if it has errors. */
export function compileContract(text: string, file = 'test.contract.json', options: { exactNumbers?: boolean } = {}): LoadedContract {
  const result = compileContracts([{ file, text }], options);
  const module = result.files.find((f) => f.path !== 'index.ts');
  if (module === undefined) throw new Error(`contract did not compile:\n${result.diagnostics.map((d) => `${d.code} ${d.message} ${d.pointer}`).join('\n')}`);
  return loadModule<{ contract: LoadedContract }>(module.text).contract;
}

/** A contract whose input is `schemaText` (exact source text, so number lexemes survive). */
export function compileSchema(schemaText: string, options: { exactNumbers?: boolean } = {}): LoadedValidator {
  return compileContract(`{"name":"test.schema","description":"Test.","input":${schemaText},"output":{}}`, 'test.contract.json', options).input;
}

/**
 * A failed `validate` names the real issues: at least one, and never the generic "does not match
 * the schema" that the module adds only when the fast pass and the issue pass disagree (a bug).
 */
export function realIssueMessages(result: ReturnType<LoadedValidator['validate']>): string[] {
  if (result.ok) return [];
  const messages = result.issues.map((i) => i.message);
  if (messages.length === 0 || messages.includes(fallbackIssueMessage)) throw new Error(`validate fell back to the generic issue: ${JSON.stringify(result.issues)}`);
  return messages;
}

export const fallbackIssueMessage = 'does not match the schema';
