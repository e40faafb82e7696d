import { Code, code, lines } from '../codegen/code.js';
import { exportName, indexRecordName, typeStem } from '../contract/names.js';
import { generatedHeaderLine } from './marker.js';

/**
 * The `index` module: every contract (by tool name, sorted) under its camelCase name, with its
 * Input/Output types, and the set of them, `contracts` (export name → contract) with its type
 * `Contracts`, for `runtime.registerAll(contracts, handlers)`. The record is a plain object of
 * imported bindings, so a bundler drops it when nothing uses it: one contract imported through the
 * index still costs what its module does. For `--emit ts` it is `index.ts`, importing `./name.js`
 * as TypeScript asks; for `--emit js` the modules are `.mjs` (ESM whatever the enclosing
 * package.json says) and the index is `index.mjs` with its declarations, `index.d.mts`.
 */
export function emitIndexModule(toolNames: readonly string[], emit: 'ts' | 'js'): { readonly ts: string; readonly js: string; readonly declarations: string } {
  const extension = emit === 'ts' ? 'js' : 'mjs';
  const contracts = toolNames.map((name) => {
    const stem = typeStem(name);
    const binding = Code.identifier(exportName(name));
    const types = Code.typeOnly(`, type ${Code.identifier(`${stem}Input`).text}, type ${Code.identifier(`${stem}Output`).text}`);
    return {
      imported: code`import { contract as ${binding}${types} } from ${`./${name}.${extension}`};`,
      exported: code`export { ${binding}${types} };`,
      member: code`  ${binding},`,
      memberType: code`  readonly ${binding}: typeof ${binding};`,
    };
  });
  /** `{` and `}` around one line per part; `{}` for none (a build of no contracts). */
  const braces = (parts: readonly Code[]): string => (parts.length === 0 ? '{}' : `{\n${lines(parts).text}\n}`);
  const record = Code.identifier(indexRecordName).text;
  const recordDoc = `/** Every contract of this build under its export name: the set \`runtime.registerAll(${record}, handlers)\` takes. */`;
  const recordType = `/** The type of \`${record}\`: each export name with its contract type. */\nexport type Contracts = ${braces(contracts.map((c) => c.memberType))};`;
  const recordValue = (annotation: string): string => `${recordDoc}\nexport const ${record}${annotation} = ${braces(contracts.map((c) => c.member))};`;
  const head = `${generatedHeaderLine('contracts')}\n\n`;
  const imports = lines(contracts.map((c) => c.imported));
  const exports = lines(contracts.map((c) => c.exported));
  const module = (parts: readonly string[]): string => `${head}${parts.filter((part) => part !== '').join('\n\n')}\n`;
  return {
    ts: module([imports.text, exports.text, recordValue(': Contracts'), recordType]),
    js: module([imports.js, exports.js, recordValue('')]),
    declarations: module([imports.text, exports.text, `${recordDoc}\nexport declare const ${record}: Contracts;`, recordType]),
  };
}
