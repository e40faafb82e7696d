import type { DiagnosticCode } from '../diagnostics/codes.js';
import { compareDecimals, decimalText, isWholeDecimal, parseDecimal } from '@json-tool-contracts/runtime/internal';
import type { DiagnosticInput } from '../diagnostics/diagnostic.js';
import type { Code } from '../codegen/code.js';
import type { AnyRules, CountBound, DecimalBound, Located, SchemaNode } from '../ir/schema-node.js';
import { sourceOf, tokenEnd, type Rewrite, type TextEdit } from '../source/edits.js';
import type { JsonMember, JsonNode, JsonObjectNode } from '../source/json-node.js';
import type { NumericReading } from './numeric-reading.js';
import type { EmitScope } from './emission.js';

/** Which values a keyword constrains; `all` keywords apply whatever the type. */
export type RuleGroup = 'string' | 'number' | 'array' | 'object' | 'all';

export interface ReadContext {
  readonly exactNumbers: boolean;
  report(diagnostic: DiagnosticInput): void;
}

/** One keyword: how its value is checked at build time, and what an editor is told of it. */
export interface KeywordDefinition<T = unknown> {
  readonly keyword: string;
  readonly group: RuleGroup;
  /** The keyword's value, checked; undefined after reporting why it is invalid. */
  read(value: JsonNode, context: ReadContext): T | undefined;
  /** The keyword in the editor schema: its value's JSON Schema (draft-07) and its meaning. */
  readonly editor: EditorEntry;
}

/** A draft-07 schema for the keyword's value, `$ref: "#/definitions/schema"` standing for a contract schema. */
export type EditorEntry = Readonly<Record<string, unknown>> & { readonly description: string };

/**
 * Each keyword's checked value on one schema, by its definition: the definition's type is the
 * value's, so reading one back needs no cast at the call.
 */
export class KeywordValues {
  private readonly byDefinition = new Map<KeywordDefinition, unknown>();

  set<T>(definition: KeywordDefinition<T>, value: T): void {
    this.byDefinition.set(definition as KeywordDefinition, value);
  }

  get<T>(definition: KeywordDefinition<T>): T | undefined {
    return this.byDefinition.get(definition as KeywordDefinition) as T | undefined;
  }
}

/** Drops undefined fields, as `exactOptionalPropertyTypes` wants optional fields absent, not undefined. */
export function withDefined<T extends object>(value: { [K in keyof T]-?: T[K] | undefined }): T {
  const result: Record<string, unknown> = {};
  for (const key in value) {
    if (value[key] !== undefined) result[key] = value[key];
  }
  return result as T;
}

export type Warn = (code: DiagnosticCode, at: Located, message: string, hint: string) => void;

/** What a family's build-time warnings are given. */
export interface WarnScope {
  readonly numeric: NumericReading;
  readonly warn: Warn;
  /** Whether a source value meets a schema; with `ignoreEnum`, by its type and rules alone. */
  accepts(node: SchemaNode, value: JsonNode, ignoreEnum?: boolean): boolean;
}

/** What a change does to the values a schema accepts. */
export type Effect = 'narrows' | 'widens' | 'both';

/** What a family's comparison of two versions of a schema is given, for `jtc diff`. */
export interface CompareScope {
  readonly numeric: NumericReading;
  /** Records a change, at the keyword's value when it still stands (else at the schema). */
  change(located: Located | undefined, effect: Effect, what: string): void;
  /** Compares two versions of a child schema. */
  child(before: SchemaNode, after: SchemaNode): void;
}

/**
 * One keyword family (a file of `keywords/`): its keywords and, side by side, every part of what
 * they mean. The table (`keywords/index.ts`) lists the families in the exported schema's order;
 * every consumer iterates it, so none names a keyword. Parts a family has nothing for are absent.
 */
export interface KeywordFamily {
  /** Its keywords, in the exported schema's order. */
  readonly keywords: readonly KeywordDefinition[];
  /** Writes its keywords as the exported schema holds them, in order; `child` writes a sub-schema. */
  toJson(node: SchemaNode, write: (keyword: string, value: JsonNode) => void, child: (schema: SchemaNode) => JsonNode): void;
  /** What it adds to a shape's key: schemas whose keys are equal must validate alike. */
  shapeKey?(node: SchemaNode, childKey: (schema: SchemaNode) => string): string;
  /** Legal but almost certainly unmeant uses on one schema (its children are visited apart). */
  warn?(node: SchemaNode, scope: WarnScope): void;
  /** JSDoc lines for what it says of a value (annotations, and constraints a type cannot say); `childLines` gives a sub-schema's. */
  docLines?(node: SchemaNode, childLines: (schema: SchemaNode) => readonly string[]): readonly string[];
  /** The changes its keywords make between two versions of a schema; `unrelated` when nothing else compares (another type). */
  compare?(before: SchemaNode, after: SchemaNode, scope: CompareScope): 'unrelated' | undefined;
  /** The child schemas its keywords hold. */
  children?(node: SchemaNode): readonly SchemaNode[];
  /** Exact rewrites of values of its keywords that the subset does not take (`keywords/index.ts` gathers them). */
  readonly rewrites?: Readonly<Record<string, KeywordRewriter>>;
}

/** Where a rewrite may apply: one member of a schema object, in the text the parser read. */
export interface RewriteSite {
  readonly text: string;
  /** The schema object the member belongs to. */
  readonly schema: JsonObjectNode;
  readonly member: JsonMember;
  /** The root schema (a contract's `input` or `output`): local references (`#/$defs/…`) resolve against it. */
  readonly root: JsonNode;
}

/** An exact rewrite: the text edits, what they do in words, and where the result stands (its JSON Pointer once applied). */
export interface KeywordRewrite extends Rewrite {
  readonly pointer: string;
}

/**
 * The exact rewrite of one member into the subset's terms, or undefined when the schema around it
 * leaves none (the keyword is then refused as the checker says). Pure: it reads the text and the
 * parsed nodes, and changes nothing.
 */
export type KeywordRewriter = (site: RewriteSite) => KeywordRewrite | undefined;

/** The rules of one group of values, as the IR keeps them. */
export type RuleGroupName = Exclude<RuleGroup, 'all'>;

/** A JSON value of a group's type, as the parser gives it. */
export type SourceValueOf<G extends RuleGroupName> = Extract<JsonNode, { kind: G }>;

/**
 * A family that owns the rules of one group of values (`type: "string"` and the string rules of a
 * schema without `type`): it builds them, and means them at build time and in generated code.
 */
export interface RuleFamily<G extends RuleGroupName> extends KeywordFamily {
  readonly group: G;
  /** The group's rules from the values read on one schema; `child` checks a sub-schema. */
  rules(values: KeywordValues, schemaPath: string, child: (node: JsonNode, schemaPath: string) => SchemaNode | undefined): AnyRules[G];
  /** Whether the rules constrain nothing (a value of the type then only has to be JSON). */
  isEmpty(rules: AnyRules[G]): boolean;
  /** Whether a source value of the group's type meets the rules (numbers as `numeric` reads them). */
  holds(rules: AnyRules[G], value: SourceValueOf<G>, numeric: NumericReading, accepts: (node: SchemaNode, value: JsonNode) => boolean): boolean;
  /** The statements that check a value already known to be of the group's type. */
  emit(rules: AnyRules[G], scope: EmitScope): Code;
}

/** A rule family whose rules shape the TypeScript type (arrays, objects); for the others `type` alone decides it. */
export interface TypedRuleFamily<G extends RuleGroupName> extends RuleFamily<G> {
  /** The type of a value of a schema declaring the group's type, as union members. */
  type(rules: AnyRules[G], scope: TypeScope, indent: string): readonly Code[];
}

/** What a family's TypeScript type is given. */
export interface TypeScope {
  readonly exactNumbers: boolean;
  /** A child schema's type as union members; `indent` is the indentation of the line it starts on. */
  typeOf(node: SchemaNode, indent: string): readonly Code[];
  /** A child schema's JSDoc comment, or nothing. */
  doc(node: SchemaNode, indent: string): Code;
  /** `JsonValue` (any JSON value), which the module then declares. */
  jsonValue(): Code;
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

/** A length or count keyword: a non-negative integer. */
export function countKeyword(keyword: string, group: RuleGroup, description: string): KeywordDefinition<CountBound> {
  return { keyword, group, read: readCount(keyword), editor: { type: 'integer', minimum: 0, description } };
}

/** A numeric bound, held exactly. */
export function decimalKeyword(keyword: string, group: RuleGroup, description: string): KeywordDefinition<DecimalBound> {
  return { keyword, group, read: readDecimal(keyword), editor: { type: 'number', description } };
}

function readCount(keyword: string) {
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

function readDecimal(keyword: string) {
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

/**
 * The first number outside the f64 range inside a value, in source order. A stack, not a
 * recursive generator: a `yield*` chain hands every number through each level above it, which made
 * a value nested deep cost numbers × depth (the checker must stay linear in the file).
 */
function firstNumberOutsideF64(node: JsonNode): Extract<JsonNode, { kind: 'number' }> | undefined {
  const pending: JsonNode[] = [node];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.kind === 'number' && !Number.isFinite(Number(next.lexeme))) return next;
    if (next.kind === 'array') for (let i = next.items.length - 1; i >= 0; i--) pending.push(next.items[i]!);
    else if (next.kind === 'object') for (let i = next.members.length - 1; i >= 0; i--) pending.push(next.members[i]!.value);
  }
  return undefined;
}

export function valuesFitF64(keyword: string, node: JsonNode, context: ReadContext): boolean {
  if (context.exactNumbers) return true;
  const outside = firstNumberOutsideF64(node);
  if (outside === undefined) return true;
  reportAt(context, 'JTC117', outside, `${keyword} value ${outside.lexeme} is outside the range of a 64-bit float`, 'build with --exact-numbers to keep every digit, or use a smaller number');
  return false;
}

/** Renames a member where it stands: the edit replaces its key only. */
export function renameKey(text: string, member: JsonMember, key: string): TextEdit {
  return { start: member.keyPosition.offset, end: tokenEnd(text, member.keyPosition.offset), text: JSON.stringify(key) };
}

/** A member's source text, `"key": value`. */
export function memberSource(text: string, member: JsonMember): string {
  return `${JSON.stringify(member.key)}: ${sourceOf(text, member.value)}`;
}
