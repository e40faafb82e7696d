import { Code, code, lines } from '../codegen/code.js';
import { exportName, typeStem } from '../contract/names.js';
import { generatedHeaderLine } from './marker.js';

/** The `index` module: every contract (by tool name, sorted) under its camelCase name, with its Input/Output types. */
export function emitIndexModule(toolNames: readonly string[]): string {
  const exports = toolNames.map((name) => {
    const stem = typeStem(name);
    return code`export { contract as ${Code.identifier(exportName(name))}, type ${Code.identifier(`${stem}Input`)}, type ${Code.identifier(`${stem}Output`)} } from ${`./${name}.js`};`;
  });
  return `${generatedHeaderLine('contracts')}\n\n${lines(exports.length === 0 ? [code`export {};`] : exports).text}\n`;
}
