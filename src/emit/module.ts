import type { ContractIR } from '../ir/contract-ir.js';
import { typeStem } from '../contract/names.js';
import { schemaToJson } from '../subset/to-json.js';
import { join, literal } from '../codegen/code.js';
import { type HelperName, helperCode, supportNote } from '../codegen/helpers.js';
import { jsonLiteral, jsonLiteralBlock, usesJsonNumber } from '../codegen/json-literal.js';
import { generatedHeaderLine } from './marker.js';
import { exactNumberTypes, inlineSupport, type Language, type SupportKind, supportImports } from './support-module.js';
import { fillTemplate, readTemplate, templateParts } from './template.js';
import { emitTypes } from './types.js';
import { ValidatorEmitter } from './validator.js';

/** Most issues `validate` reports for one value. */
export const maxIssues = 100;

/**
 * A module as `--emit ts` writes it, or as `--emit js` does: JavaScript and its declarations; and
 * the helpers it uses, which a shared support module (`--support shared`) must carry for it.
 */
export type EmittedModule = ({ readonly ts: string } | { readonly js: string; readonly declarations: string }) & { readonly helpers: readonly HelperName[] };

/**
 * One contract → the source of its module: types and validators from one IR. `--emit js` writes
 * the JavaScript and the declarations straight from the same code (the builder renders every
 * piece both ways), so it needs no TypeScript compiler. With `support: 'shared'` the module
 * imports its support code from the build's support module instead of carrying it.
 */
export function emitModule(contract: ContractIR, emit?: 'ts', support?: SupportKind): { readonly ts: string; readonly helpers: readonly HelperName[] };
export function emitModule(contract: ContractIR, emit: 'js', support?: SupportKind): { readonly js: string; readonly declarations: string; readonly helpers: readonly HelperName[] };
export function emitModule(contract: ContractIR, emit: 'ts' | 'js' = 'ts', support: SupportKind = 'inline'): EmittedModule {
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
  const shared = support === 'shared';
  const numberTypes = exact && !shared ? `\n\n${exactNumberTypes}` : '';
  const jsonValueType = types.usesJsonValue ? `\n\n/** Any JSON value. */\nexport type JsonValue = null | boolean | ${exact ? 'NumericValue' : 'number'} | string | JsonValue[] | { [key: string]: JsonValue };` : '';
  const hoisted = join(validators.hoisted, '\n');
  // A build that asks for size writes each exported schema on one line: under gzip, the indentation
  // of a deeply nested schema costs as much as its support code did (the contract file is the readable one).
  const schemaLiteral = (schema: typeof inputSchema): string => (shared ? jsonLiteral(schema, exact).text : jsonLiteralBlock(schema, exact));
  const common = {
    header: header(contract),
    imports: '',
    types: types.text + numberTypes + jsonValueType,
    maxIssues: String(maxIssues),
    inputSchema: schemaLiteral(inputSchema),
    outputSchema: schemaLiteral(outputSchema),
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
  const helpers = [...validators.helpers];
  /** The module in one language: its support code carried, or imported from the support module by what the rest uses. */
  const render = (language: Language, values: Readonly<Record<string, string>>): string => {
    if (!shared) {
      const parts = templates[language];
      const carried = inlineSupport(language, common.maxIssues);
      const helperSection = language === 'dts' ? {} : { helpers: [supportNote, ...helperCode(helpers, exact, language)].join('\n\n') };
      return fillTemplate(parts, { ...values, supportHead: carried.head, supportTail: carried.tail, ...helperSection });
    }
    const parts = sharedTemplates[language];
    const own = { ...values, supportHead: '', supportTail: '', helpers: '' };
    return fillTemplate(parts, { ...own, imports: supportImports(fillTemplate(parts, own), language, helpers, exact) });
  };
  if (emit === 'ts') return { ts: render('ts', { ...common, hoisted: hoisted.text, validators: validators.functionsText('ts') }), helpers };
  const js = render('js', { ...common, types: '', hoisted: hoisted.js, validators: validators.functionsText('js') });
  return { js, declarations: render('dts', common), helpers };
}

function header(contract: ContractIR): string {
  const mode = contract.exactNumbers ? 'exact (every digit of bounds and values kept)' : 'default (bounds and values as JS numbers, rounded to the nearest f64)';
  return [generatedHeaderLine('contract'), `// Tool: ${literal(contract.name)}`, `// Contract SHA-256: ${contract.hash}`, `// Numbers: ${mode}`].join('\n');
}

/** The module templates: `module.ts.tpl`, and the JavaScript and declarations `npm run templates` writes from it. */
const templates: Readonly<Record<Language, readonly string[]>> = {
  ts: templateParts(readTemplate('module.ts.tpl')),
  js: templateParts(readTemplate('module.js.tpl')),
  dts: templateParts(readTemplate('module.d.ts.tpl')),
};

/**
 * The same for a module that imports its support code: without the template's doc comments, which
 * explain the template's code to whoever reads the one module that carries it all (they stay in
 * `templates/module.ts.tpl`); placeholders and the user's text are never inside them.
 */
const sharedTemplates: Readonly<Record<Language, readonly string[]>> = {
  ts: withoutDocComments(templates.ts),
  js: withoutDocComments(templates.js),
  dts: withoutDocComments(templates.dts),
};

function withoutDocComments(parts: readonly string[]): readonly string[] {
  return parts.map((part, i) => (i % 2 === 0 ? part.replace(/^\/\*\*[\s\S]*?\*\/\n/gm, '') : part));
}
