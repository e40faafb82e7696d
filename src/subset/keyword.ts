import type { DiagnosticCode } from '../diagnostics/codes.js';
import { compareDecimals, decimalText, isWholeDecimal, parseDecimal } from '../runtime/json.js';
import type { DiagnosticInput } from '../diagnostics/diagnostic.js';
import type { Code } from '../codegen/code.js';
import type { CountBound, DecimalBound, Located } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';

/** Which values a keyword constrains; `all` keywords apply whatever the type. */
export type RuleGroup = 'string' | 'number' | 'array' | 'object' | 'all';

export interface ReadContext {
  readonly exactNumbers: boolean;
  report(diagnostic: DiagnosticInput): void;
}

/** One entry of the keyword table: how its value is checked at build time. */
export interface KeywordDefinition<T = unknown> {
  readonly keyword: string;
  readonly group: RuleGroup;
  /** The keyword's value, checked; undefined after reporting why it is invalid. */
  read(value: JsonNode, context: ReadContext): T | undefined;
}

/**
 * A constraint on one value, in every mode: `holds` is its meaning at build time (on source
 * values, numbers exact), `emit` the same meaning as generated code, with the message that
 * reports it. Both sit side by side in the keyword's file so they cannot drift apart.
 */
export interface ValueConstraint<Rule, Value> {
  readonly keyword: string;
  holds(rule: Rule, value: Value): boolean;
  emit(rule: Rule, value: Code, context: EmitContext): EmittedCheck;
}

/** What an emitter needs besides the rule: the number mode, and module-level constants. */
export interface EmitContext {
  readonly exactNumbers: boolean;
  /** Declares a module-level constant (built once, at load) and returns its name. */
  hoist(prefix: string, init: Code): Code;
}

export interface EmittedCheck {
  /** An expression that is true when the value breaks the constraint. */
  readonly fails: Code;
  /** An expression for the message, evaluated only on failure. */
  readonly message: Code;
  /** An object literal expression with the parameters. */
  readonly params: Code;
}

/** Reports a problem at a keyword's value; returns undefined, the value a failed `read` gives. */
export function reportAt(context: ReadContext, code: DiagnosticCode, node: JsonNode, message: string, hint?: string): undefined {
  const diagnostic: DiagnosticInput = { code, position: node.position, pointer: node.pointer, message };
  context.report(hint === undefined ? diagnostic : { ...diagnostic, hint });
  return undefined;
}

export function invalidValue(context: ReadContext, node: JsonNode, message: string, hint?: string): undefined {
  return reportAt(context, 'JTC112', node, message, hint);
}

export function located(node: JsonNode): Located {
  return { pointer: node.pointer, position: node.position };
}

/** Lengths and counts are exact: above 2^53 no JS value could reach them anyway. */
const maxCount = parseDecimal(String(2 ** 53))!;

export function readCount(keyword: string) {
  return (node: JsonNode, context: ReadContext): CountBound | undefined => {
    if (node.kind !== 'number') return invalidValue(context, node, `"${keyword}" must be a non-negative integer, found ${node.kind}`);
    const value = parseDecimal(node.lexeme)!;
    if (!isWholeDecimal(value) || value.negative) {
      return invalidValue(context, node, `"${keyword}" must be a non-negative integer, found ${node.lexeme}`);
    }
    if (compareDecimals(value, maxCount) > 0) return invalidValue(context, node, `"${keyword}" is ${node.lexeme}, more than 2^53`, 'no JSON value can be that long; drop the keyword');
    return { ...located(node), value: Number(decimalText(value)) };
  };
}

export function readDecimal(keyword: string) {
  return (node: JsonNode, context: ReadContext): DecimalBound | undefined => {
    if (node.kind !== 'number') return invalidValue(context, node, `"${keyword}" must be a number, found ${node.kind}`);
    const value = parseDecimal(node.lexeme)!;
    if (!context.exactNumbers && !Number.isFinite(Number(node.lexeme))) {
      return reportAt(context, 'JTC117', node, `"${keyword}" ${node.lexeme} is outside the range of a 64-bit float`, 'in the default mode bounds are rounded to the nearest f64; build with --exact-numbers to keep every digit');
    }
    return { ...located(node), lexeme: node.lexeme, value };
  };
}

export function readString(keyword: string) {
  return (node: JsonNode, context: ReadContext): string | undefined => (node.kind === 'string' ? node.value : invalidValue(context, node, `"${keyword}" must be a string, found ${node.kind}`));
}

function* numbersIn(node: JsonNode): Generator<Extract<JsonNode, { kind: 'number' }>> {
  if (node.kind === 'number') yield node;
  else if (node.kind === 'array') for (const item of node.items) yield* numbersIn(item);
  else if (node.kind === 'object') for (const member of node.members) yield* numbersIn(member.value);
}

/**
 * In the default mode a generated module holds values as JS numbers, so a value anywhere inside
 * `enum`, `default` or `examples` must have an f64 (JTC117); true when every number does.
 */
export function valuesFitF64(keyword: string, node: JsonNode, context: ReadContext): boolean {
  if (context.exactNumbers) return true;
  for (const value of numbersIn(node)) {
    if (!Number.isFinite(Number(value.lexeme))) {
      reportAt(context, 'JTC117', value, `${keyword} value ${value.lexeme} is outside the range of a 64-bit float`, 'build with --exact-numbers to keep every digit, or use a smaller number');
      return false;
    }
  }
  return true;
}
