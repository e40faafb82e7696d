import { Code, code, lines } from '../codegen/code.js';
import { exportName, typeStem } from '../contract/names.js';
import { generatedHeaderLine } from './marker.js';

/**
 * The `index` module: every contract (by tool name, sorted) under its camelCase name, with its
 * Input/Output types. For `--emit ts` it is `index.ts`, importing `./name.js` as TypeScript asks;
 * for `--emit js` the modules are `.mjs` (ESM whatever the enclosing package.json says), and the
 * `ts` text serves as `index.d.mts`, the `js` text as `index.mjs`.
 */
export function emitIndexModule(toolNames: readonly string[], emit: 'ts' | 'js'): { readonly ts: string; readonly js: string } {
  const extension = emit === 'ts' ? 'js' : 'mjs';
  const exports = toolNames.map((name) => {
    const stem = typeStem(name);
    const types = Code.typeOnly(`, type ${Code.identifier(`${stem}Input`).text}, type ${Code.identifier(`${stem}Output`).text}`);
    return code`export { contract as ${Code.identifier(exportName(name))}${types} } from ${`./${name}.${extension}`};`;
  });
  const body = lines(exports.length === 0 ? [code`export {};`] : exports);
  const head = `${generatedHeaderLine('contracts')}\n\n`;
  return { ts: `${head}${body.text}\n`, js: `${head}${body.js}\n` };
}
