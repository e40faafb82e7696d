import { readFileSync } from 'node:fs';
import type { ContractIR } from '../ir/contract-ir.js';
import { typeStem } from '../contract/names.js';
import { schemaToJson } from '../subset/to-json.js';
import { join, literal } from '../codegen/code.js';
import { helperCode, supportNote } from '../codegen/helpers.js';
import { jsonLiteralBlock, usesJsonNumber } from '../codegen/json-literal.js';
import { generatedHeaderLine } from './marker.js';
import { emitTypes } from './types.js';
import { ValidatorEmitter } from './validator.js';

/** Exact mode: what a number may arrive as, declared in the module so that it imports nothing. */
const exactNumberTypes = `/** A JSON number kept exactly by the runtime's lossless parser (\`parseJson(text, { exactNumbers: true })\`). */
export interface JsonNumber {
  /** The canonical decimal text, e.g. "0.30000000000000000001". */
  readonly decimal: string;
  toString(): string;
}

/** A number as exact mode delivers it: a double when that loses nothing, else a bigint (integers) or a JsonNumber. */
export type NumericValue = number | bigint | JsonNumber;`;

/** Most issues `validate` reports for one value. */
export const maxIssues = 100;

/** A module as `--emit ts` writes it, or as `--emit js` does: JavaScript and its declarations. */
export type EmittedModule = { readonly ts: string } | { readonly js: string; readonly declarations: string };

/**
 * One contract → the source of its module: types and validators from one IR. `--emit js` writes
 * the JavaScript and the declarations straight from the same code (the builder renders every
 * piece both ways), so it needs no TypeScript compiler.
 */
export function emitModule(contract: ContractIR): string;
export function emitModule(contract: ContractIR, emit: 'js'): { readonly js: string; readonly declarations: string };
export function emitModule(contract: ContractIR, emit: 'ts' | 'js' = 'ts'): string | { readonly js: string; readonly declarations: string } {
  const stem = typeStem(contract.name);
  const exact = contract.exactNumbers;
  const validators = new ValidatorEmitter(exact);
  const input = validators.emitRoot(contract.input, 'Input');
  const output = validators.emitRoot(contract.output, 'Output');
  const types = emitTypes(contract, stem, exact);
  const inputSchema = schemaToJson(contract.input);
  const outputSchema = schemaToJson(contract.output);
  // A schema holding numbers no double holds is handed to hosts (the Standard JSON Schema trait) as hostJsonSchema shows it.
  const forHosts = (schema: typeof inputSchema, name: string, role: 'input' | 'output'): string => {
    if (!usesJsonNumber(schema, exact)) return name;
    validators.helpers.add('jsonNumber');
    validators.helpers.add('hostJsonSchema');
    return `/* @__PURE__ */ hostJsonSchema(${name}, ${literal(role)})`;
  };
  const inputSchemaForHosts = forHosts(inputSchema, 'inputSchema', 'input');
  const outputSchemaForHosts = forHosts(outputSchema, 'outputSchema', 'output');
  // The template's createValidator hands out copies of the schemas and describes what a read threw.
  validators.helpers.add('copyJsonValue');
  validators.helpers.add('describeThrown');
  const numberTypes = exact ? `\n\n${exactNumberTypes}` : '';
  const jsonValueType = types.usesJsonValue ? `\n\n/** Any JSON value. */\nexport type JsonValue = null | boolean | ${exact ? 'NumericValue' : 'number'} | string | JsonValue[] | { [key: string]: JsonValue };` : '';
  const hoisted = join(validators.hoisted, '\n');
  const common = {
    header: header(contract),
    types: types.text + numberTypes + jsonValueType,
    maxIssues: String(maxIssues),
    inputSchema: jsonLiteralBlock(inputSchema, exact),
    outputSchema: jsonLiteralBlock(outputSchema, exact),
    inputSchemaForHosts,
    outputSchemaForHosts,
    name: literal(contract.name),
    description: literal(contract.description),
    exactNumbers: String(contract.exactNumbers),
    inputType: `${stem}Input`,
    outputType: `${stem}Output`,
    checkInput: input.checkName,
    collectInput: input.collectName,
    checkOutput: output.checkName,
    collectOutput: output.collectName,
  };
  const helpers = (language: 'ts' | 'js') => [supportNote, ...helperCode(validators.helpers, exact, language)].join('\n\n');
  if (emit === 'ts') return fillTemplate(templates.ts, { ...common, helpers: helpers('ts'), hoisted: hoisted.text, validators: validators.functionsText('ts') });
  const js = fillTemplate(templates.js, { ...common, types: '', helpers: helpers('js'), hoisted: hoisted.js, validators: validators.functionsText('js') });
  return { js, declarations: fillTemplate(templates.declarations, common) };
}

function header(contract: ContractIR): string {
  const mode = contract.exactNumbers ? 'exact (every digit of bounds and values kept)' : 'default (bounds and values as JS numbers, rounded to the nearest f64)';
  return [generatedHeaderLine('contract'), `// Tool: ${literal(contract.name)}`, `// Contract SHA-256: ${contract.hash}`, `// Numbers: ${mode}`].join('\n');
}

/**
 * Each template cut once at its placeholders: static text at even indices, names at odd ones. The
 * JavaScript and declaration templates are written from the TypeScript one (`npm run templates`).
 */
const templates = {
  ts: templateParts('module.ts.tpl'),
  js: templateParts('module.js.tpl'),
  declarations: templateParts('module.d.ts.tpl'),
};

function templateParts(file: string): readonly string[] {
  return readFileSync(new URL(`../../templates/${file}`, import.meta.url), 'utf8').split(/\{\{(\w+)\}\}/);
}

/**
 * Replaces each `{{name}}`. A section left empty takes the blank line after it along, so unused
 * sections leave no gaps (the values themselves never hold a blank line's worth of newlines).
 */
function fillTemplate(parts: readonly string[], values: Readonly<Record<string, string>>): string {
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[parts[i]!];
    if (value === undefined) throw new Error(`template placeholder {{${parts[i]}}} has no value`);
    const after = parts[i + 1]!;
    text += value === '' && text.endsWith('\n\n') && after.startsWith('\n\n') ? after.slice(2) : value + after;
  }
  return text;
}
