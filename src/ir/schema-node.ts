import type { ParsedDecimal } from '@json-tool-contracts/runtime/internal';
import type { Position } from '../diagnostics/diagnostic.js';
import type { JsonNode } from '../source/json-node.js';

/**
 * The checked schema: the single source from which validators and types are generated, so the
 * two can never disagree. A node's `kind` is its declared `type`, or `any` when `type` is absent;
 * an `any` node keeps the rules of every type, each applying only to values of that type.
 */
export type SchemaNode = NullNode | BooleanNode | NumberNode | StringNode | ArrayNode | ObjectNode | AnyNode;

export type TypeName = 'null' | 'boolean' | 'number' | 'integer' | 'string' | 'array' | 'object';

export interface NodeBase {
  /** Where the schema stands in the contract file, e.g. `/input/properties/name`. */
  readonly pointer: string;
  /** Where it stands inside its root schema, as validation issues report it: `#/properties/name`. */
  readonly schemaPath: string;
  readonly position: Position;
  readonly enum?: EnumRule;
  readonly annotations: Annotations;
}

export interface NullNode extends NodeBase {
  readonly kind: 'null';
}

export interface BooleanNode extends NodeBase {
  readonly kind: 'boolean';
}

export interface NumberNode extends NodeBase {
  readonly kind: 'number' | 'integer';
  readonly rules: NumberRules;
}

export interface StringNode extends NodeBase {
  readonly kind: 'string';
  readonly rules: StringRules;
}

export interface ArrayNode extends NodeBase {
  readonly kind: 'array';
  readonly rules: ArrayRules;
}

export interface ObjectNode extends NodeBase {
  readonly kind: 'object';
  readonly rules: ObjectRules;
}

export interface AnyNode extends NodeBase {
  readonly kind: 'any';
  readonly rules: AnyRules;
}

export interface AnyRules {
  readonly string: StringRules;
  readonly number: NumberRules;
  readonly array: ArrayRules;
  readonly object: ObjectRules;
}

/** Where a keyword's value stands, for diagnostics and schema paths. */
export interface Located {
  readonly pointer: string;
  readonly position: Position;
}

/** A length or count bound: a non-negative integer (`2.0` allowed as the spec's integers are). */
export interface CountBound extends Located {
  readonly value: number;
}

/** A numeric bound held exactly: the literal and its exact decimal value, never a float. */
export interface DecimalBound extends Located {
  readonly lexeme: string;
  readonly value: ParsedDecimal;
}

export interface StringRules {
  readonly minLength?: CountBound;
  readonly maxLength?: CountBound;
}

export interface NumberRules {
  readonly minimum?: DecimalBound;
  readonly maximum?: DecimalBound;
}

export interface ArrayRules {
  readonly items?: SchemaNode;
  readonly minItems?: CountBound;
  readonly maxItems?: CountBound;
}

export interface PropertyRule {
  readonly name: string;
  readonly schema: SchemaNode;
}

export interface ObjectRules {
  readonly properties: readonly PropertyRule[];
  readonly required: readonly string[];
  /** Absent means true. */
  readonly additionalProperties?: boolean;
}

export interface EnumRule extends Located {
  /** The values as written, numbers with their exact lexemes. */
  readonly values: readonly JsonNode[];
  /**
   * The values the schema's own type and bounds accept (JTC203 warns about the others): the ones a
   * value can match. Validators and types use these, so a rejected member never shows up as a type
   * or as a comparison TypeScript knows cannot hold.
   */
  readonly accepted: readonly JsonNode[];
}

export interface Annotations {
  readonly title?: string;
  readonly description?: string;
  readonly default?: JsonNode;
  readonly examples?: readonly JsonNode[];
  readonly $schema?: string;
  readonly $id?: string;
}

/** The group of values a declared type's rules constrain. */
const groupOfKind: Readonly<Record<SchemaNode['kind'], keyof AnyRules | undefined>> = { null: undefined, boolean: undefined, number: 'number', integer: 'number', string: 'string', array: 'array', object: 'object', any: undefined };

/** The rules a node applies to values of one group: an `any` node has all four, a typed node its own type's. */
export function rulesOf<G extends keyof AnyRules>(node: SchemaNode, group: G): AnyRules[G] | undefined {
  if (node.kind === 'any') return node.rules[group];
  return groupOfKind[node.kind] === group ? ((node as Extract<SchemaNode, { rules: unknown }>).rules as AnyRules[G]) : undefined;
}
