import type { ContractIR } from '../ir/contract-ir.js';
import { makeDiagnostic, type Diagnostic, type Position } from '../diagnostics/diagnostic.js';
import { equalityKey } from '../ir/json-equality.js';
import { rulesOf, type CountBound, type DecimalBound, type Located, type SchemaNode } from '../ir/schema-node.js';
import { compareDecimals } from '../runtime/json.js';
import { numericReading, type NumericReading } from '../subset/evaluate.js';

/**
 * Two versions of a set of contracts, classified change by change from the IR. A change makes a
 * schema accept less (narrows) or more (widens), or both (another type). Callers send the input,
 * so a narrowed input breaks them (JTC401); consumers read the output, so a widened output breaks
 * them (JTC402); the other direction is compatible (JTC410). A removed tool breaks its callers
 * (JTC400); an added one is compatible (JTC411). Bounds are compared as exact decimals.
 */
type Effect = 'narrows' | 'widens' | 'both';

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
  const at = (located: Located | undefined, effect: Effect, what: string): void => {
    changes.push({ effect, what, pointer: located?.pointer ?? after.pointer, position: located?.position ?? after.position });
  };
  if (before.kind !== after.kind) {
    const effect: Effect = before.kind === 'any' || (before.kind === 'number' && after.kind === 'integer') ? 'narrows' : after.kind === 'any' || (before.kind === 'integer' && after.kind === 'number') ? 'widens' : 'both';
    at(undefined, effect, `"type" went from ${before.kind === 'any' ? 'any' : `"${before.kind}"`} to ${after.kind === 'any' ? 'any' : `"${after.kind}"`}`);
    if (effect === 'both') return;
  }
  compareEnums(before, after, at, numeric);
  const was = rulesOf(before);
  const now = rulesOf(after);
  compareBound(was.string?.minLength, now.string?.minLength, 'minLength', 'lower', at, countOrder);
  compareBound(was.string?.maxLength, now.string?.maxLength, 'maxLength', 'upper', at, countOrder);
  compareBound(was.number?.minimum, now.number?.minimum, 'minimum', 'lower', at, decimalOrder(numeric));
  compareBound(was.number?.maximum, now.number?.maximum, 'maximum', 'upper', at, decimalOrder(numeric));
  compareBound(was.array?.minItems, now.array?.minItems, 'minItems', 'lower', at, countOrder);
  compareBound(was.array?.maxItems, now.array?.maxItems, 'maxItems', 'upper', at, countOrder);
  if (was.array !== undefined && now.array !== undefined) {
    const [oldItems, newItems] = [was.array.items, now.array.items];
    if (oldItems !== undefined && newItems !== undefined) compareNodes(oldItems, newItems, changes, numeric);
    else if (oldItems !== undefined) at(undefined, 'widens', '"items" was removed');
    else if (newItems !== undefined) at(newItems, 'narrows', '"items" was added');
  }
  if (was.object !== undefined && now.object !== undefined) {
    const oldRules = was.object;
    const newRules = now.object;
    const oldRequired = new Set(oldRules.required);
    const newRequired = new Set(newRules.required);
    for (const name of newRules.required) if (!oldRequired.has(name)) at(undefined, 'narrows', `property "${name}" became required`);
    for (const name of oldRules.required) if (!newRequired.has(name)) at(undefined, 'widens', `property "${name}" is no longer required`);
    const oldClosed = oldRules.additionalProperties === false;
    const newClosed = newRules.additionalProperties === false;
    if (oldClosed && !newClosed) at(undefined, 'widens', 'the object now accepts other properties ("additionalProperties" is no longer false)');
    if (!oldClosed && newClosed) at(undefined, 'narrows', 'the object no longer accepts other properties ("additionalProperties": false)');
    const oldProperties = new Map(oldRules.properties.map((p) => [p.name, p.schema]));
    const newProperties = new Map(newRules.properties.map((p) => [p.name, p.schema]));
    for (const [name, schema] of newProperties) {
      const previous = oldProperties.get(name);
      if (previous !== undefined) compareNodes(previous, schema, changes, numeric);
      // A new property of a closed object is a key it did not allow; of an open one, a rule on a key that held anything.
      else at(schema, oldClosed ? 'widens' : 'narrows', `property "${name}" was added`);
    }
    for (const name of oldProperties.keys()) {
      if (!newProperties.has(name)) at(undefined, newClosed ? 'narrows' : 'widens', `property "${name}" was removed${newClosed ? ', so the closed object refuses it' : ', so it may hold any value'}`);
    }
  }
}

type At = (located: Located | undefined, effect: Effect, what: string) => void;
type Order<B> = (a: B, b: B) => number;

const countOrder: Order<CountBound> = (a, b) => a.value - b.value;
const decimalOrder =
  (numeric: NumericReading): Order<DecimalBound> =>
  (a, b) =>
    compareDecimals(numeric(a.lexeme), numeric(b.lexeme));

const text = (bound: CountBound | DecimalBound): string => ('lexeme' in bound ? bound.lexeme : String(bound.value));

/** A bound added, or tightened (a lower one raised, an upper one lowered), narrows; removed or loosened widens. */
function compareBound<B extends CountBound | DecimalBound>(before: B | undefined, after: B | undefined, keyword: string, bound: 'lower' | 'upper', at: At, order: Order<B>): void {
  if (before === undefined) {
    if (after !== undefined) at(after, 'narrows', `"${keyword}" ${text(after)} was added`);
  } else if (after === undefined) {
    at(undefined, 'widens', `"${keyword}" ${text(before)} was removed`);
  } else {
    const sign = order(after, before);
    const tighter = bound === 'lower' ? sign > 0 : sign < 0;
    if (sign !== 0) at(after, tighter ? 'narrows' : 'widens', `"${keyword}" went from ${text(before)} to ${text(after)}`);
  }
}

function compareEnums(before: SchemaNode, after: SchemaNode, at: At, numeric: NumericReading): void {
  const [oldEnum, newEnum] = [before.enum, after.enum];
  if (oldEnum === undefined || newEnum === undefined) {
    if (oldEnum !== undefined) at(undefined, 'widens', '"enum" was removed');
    else if (newEnum !== undefined) at(newEnum, 'narrows', '"enum" was added');
    return;
  }
  const oldKeys = new Set(oldEnum.accepted.map((v) => equalityKey(v, numeric)));
  const newKeys = new Set(newEnum.accepted.map((v) => equalityKey(v, numeric)));
  const removed = oldEnum.accepted.filter((v) => !newKeys.has(equalityKey(v, numeric)));
  const added = newEnum.accepted.filter((v) => !oldKeys.has(equalityKey(v, numeric)));
  if (removed.length > 0) at(newEnum, 'narrows', `"enum" lost ${removed.length === 1 ? 'a value' : `${removed.length} values`}`);
  if (added.length > 0) at(newEnum, 'widens', `"enum" gained ${added.length === 1 ? 'a value' : `${added.length} values`}`);
}
