import { Code, code, lines } from '../codegen/code.js';
import { exportName, typeStem } from '../contract/names.js';
import { generatedHeaderLine } from './marker.js';

/**
 * The `index` module: every contract (by tool name, sorted) under its camelCase name, with its
 * Input/Output types. `ts` serves as `index.ts` and as `index.d.ts`; `js` is `index.js`.
 */
export function emitIndexModule(toolNames: readonly string[]): { readonly ts: string; readonly js: string } {
  const exports = toolNames.map((name) => {
    const stem = typeStem(name);
    const types = Code.typeOnly(`, type ${Code.identifier(`${stem}Input`).text}, type ${Code.identifier(`${stem}Output`).text}`);
    return code`export { contract as ${Code.identifier(exportName(name))}${types} } from ${`./${name}.js`};`;
  });
  const body = lines(exports.length === 0 ? [code`export {};`] : exports);
  const head = `${generatedHeaderLine('contracts')}\n\n`;
  return { ts: `${head}${body.text}\n`, js: `${head}${body.js}\n` };
}
