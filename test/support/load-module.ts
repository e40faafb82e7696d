import ts from 'typescript';
import { compileContracts } from '../../src/compiler.js';
import { diagnosticCodes } from '../../src/diagnostics/codes.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { emitModule } from '../../src/emit/module.js';
import { canonicalJson, sha256Hex } from '../../src/ir/canonical.js';
import type { SchemaNode } from '../../src/ir/schema-node.js';
import { findMember, type JsonNode, type JsonObjectNode, type JsonStringNode } from '../../src/source/json-node.js';
import { parseSourceText } from '../../src/source/parse.js';
import { checkSchema } from '../../src/subset/check-schema.js';

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
  const module = result.files.find((f) => f.path !== 'index.ts')?.text ?? scalarRootModule(text, file, result.diagnostics, options.exactNumbers ?? false);
  if (module === undefined) throw new Error(`contract did not compile:\n${result.diagnostics.map((d) => `${d.code} ${d.message} ${d.pointer}`).join('\n')}`);
  return loadModule<{ contract: LoadedContract }>(module).contract;
}

/**
 * A build refuses a root that can never be a JSON object or array (JTC127: the runtime would take
 * no value), but the validator of such a root is the code any nested schema of its type gets, and
 * the validator suites test every schema at the root. When JTC127 is the only error, the module is
 * emitted from the checked IR directly.
 */
function scalarRootModule(text: string, file: string, diagnostics: readonly Diagnostic[], exactNumbers: boolean): string | undefined {
  if (diagnostics.some((d) => d.severity === 'error' && d.code !== 'JTC127')) return undefined;
  const root = parseSourceText(text).root as JsonObjectNode;
  const member = (key: string) => findMember(root, key)!.value;
  const schema = (key: string) => schemaNodeOf(member(key), exactNumbers);
  const name = member('name') as JsonStringNode;
  const description = (member('description') as JsonStringNode).value;
  return emitModule({ file, name: name.value, namePosition: name.position, description, input: schema('input'), output: schema('output'), hash: sha256Hex(canonicalJson(root)), exactNumbers }).ts;
}

/** The checked IR of a schema that has no error, wherever it may stand (a root of any type included). */
export function schemaIR(schemaText: string, exactNumbers = false): SchemaNode {
  return schemaNodeOf(parseSourceText(schemaText).root!, exactNumbers);
}

function schemaNodeOf(source: JsonNode, exactNumbers: boolean): SchemaNode {
  const schema = checkSchema(source, { exactNumbers }, (d) => {
    if (diagnosticCodes[d.code].severity === 'error') throw new Error(`${d.code} ${d.message} at ${d.pointer}`);
  });
  if (schema === undefined) throw new Error('the schema has errors');
  return schema;
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
