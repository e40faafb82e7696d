import type { ContractIR } from '../ir/contract-ir.js';
import { makeDiagnostic, type Diagnostic, type Position } from '../diagnostics/diagnostic.js';
import type { SchemaNode } from '../ir/schema-node.js';
import type { CompareScope, Effect } from '../subset/keyword.js';
import { keywordFamilies } from '../subset/keywords/index.js';
import { numericReading, type NumericReading } from '../subset/numeric-reading.js';

/**
 * Two versions of a set of contracts, classified change by change from the IR. A change makes a
 * schema accept less (narrows) or more (widens), or both (another type). Callers send the input,
 * so a narrowed input breaks them (JTC401); consumers read the output, so a widened output breaks
 * them (JTC402); the other direction is compatible (JTC410). A removed tool breaks its callers
 * (JTC400); an added one is compatible (JTC411). Each keyword family compares its own keywords;
 * bounds are compared as exact decimals.
 */

interface Change {
  readonly effect: Effect;
  readonly pointer: string;
  readonly position: Position;
  readonly what: string;
}

export function diffContracts(before: readonly ContractIR[], after: readonly ContractIR[], exactNumbers: boolean): Diagnostic[] {
  const numeric = numericReading(exactNumbers);
  const old = new Map(before.map((c) => [c.name, c]));
  const found: Diagnostic[] = [];
  for (const contract of after) {
    const previous = old.get(contract.name);
    if (previous === undefined) {
      found.push(makeDiagnostic(contract.file, { code: 'JTC411', position: contract.namePosition, pointer: '/name', message: `tool "${contract.name}" is new`, hint: 'compatible: nothing called it before' }));
      continue;
    }
    for (const side of ['input', 'output'] as const) {
      const changes: Change[] = [];
      compareNodes(previous[side], contract[side], changes, numeric);
      for (const change of changes) found.push(diagnosticOf(contract, side, change));
    }
  }
  const names = new Set(after.map((c) => c.name));
  for (const contract of before) {
    if (names.has(contract.name)) continue;
    found.push(makeDiagnostic(contract.file, { code: 'JTC400', position: contract.namePosition, pointer: '/name', message: `tool "${contract.name}" was removed`, hint: 'breaking for callers: keep the tool, or tell its callers first' }));
  }
  return found;
}

function diagnosticOf(contract: ContractIR, side: 'input' | 'output', change: Change): Diagnostic {
  const breaking = side === 'input' ? change.effect !== 'widens' : change.effect !== 'narrows';
  const accepts = change.effect === 'narrows' ? 'accepts less' : change.effect === 'widens' ? 'accepts more' : 'accepts other values';
  if (!breaking) {
    return makeDiagnostic(contract.file, { code: 'JTC410', position: change.position, pointer: change.pointer, message: `${side}: ${change.what}; the ${side} ${accepts}`, hint: side === 'input' ? 'compatible: every call that worked still works' : 'compatible: every output it gives was valid before' });
  }
  return side === 'input'
    ? makeDiagnostic(contract.file, { code: 'JTC401', position: change.position, pointer: change.pointer, message: `input: ${change.what}; the input ${accepts}, so calls that worked may now be denied`, hint: 'breaking for callers: keep the old rule, or release it as a new tool' })
    : makeDiagnostic(contract.file, { code: 'JTC402', position: change.position, pointer: change.pointer, message: `output: ${change.what}; the output ${accepts}, so code that reads it may meet values it never saw`, hint: 'breaking for consumers of the output: keep the old rule, or release it as a new tool' });
}

function compareNodes(before: SchemaNode, after: SchemaNode, changes: Change[], numeric: NumericReading): void {
  const scope: CompareScope = {
    numeric,
    change: (located, effect, what) => changes.push({ effect, what, pointer: located?.pointer ?? after.pointer, position: located?.position ?? after.position }),
    child: (was, now) => compareNodes(was, now, changes, numeric),
  };
  for (const family of keywordFamilies) {
    if (family.compare?.(before, after, scope) === 'unrelated') return;
  }
}
