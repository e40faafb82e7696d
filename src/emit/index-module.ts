import type { ContractIR } from '../contract/contract-ir.js';
import { exportName, typeStem } from '../contract/names.js';
import { version } from '../version.js';
import { stringLiteral } from './code.js';
import { generatedMarker } from './marker.js';

/** The `index` module: every contract under its camelCase name, with its Input/Output types. */
export function emitIndexModule(contracts: readonly ContractIR[], moduleSpecifier: (contract: ContractIR) => string): string {
  const lines = [`${generatedMarker} ${version}. Do not edit: change the contracts and run \`jtc build\`.`, ''];
  for (const contract of contracts) {
    const stem = typeStem(contract.name);
    lines.push(`export { contract as ${exportName(contract.name)}, type ${stem}Input, type ${stem}Output } from ${stringLiteral(moduleSpecifier(contract))};`);
  }
  if (contracts.length === 0) lines.push('export {};');
  return `${lines.join('\n')}\n`;
}
