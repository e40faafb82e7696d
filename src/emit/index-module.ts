import { exportName, typeStem } from '../contract/names.js';
import { stringLiteral } from '../codegen/code.js';
import { generatedHeaderLine } from './marker.js';

/** The `index` module: every contract (by tool name, sorted) under its camelCase name, with its Input/Output types. */
export function emitIndexModule(toolNames: readonly string[]): string {
  const lines = [generatedHeaderLine('contracts'), ''];
  for (const name of toolNames) {
    const stem = typeStem(name);
    lines.push(`export { contract as ${exportName(name)}, type ${stem}Input, type ${stem}Output } from ${stringLiteral(`./${name}.js`)};`);
  }
  if (toolNames.length === 0) lines.push('export {};');
  return `${lines.join('\n')}\n`;
}
