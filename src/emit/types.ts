import type { ContractIR } from '../ir/contract-ir.js';
import type { SchemaNode } from '../ir/schema-node.js';
import type { TypeScope } from '../subset/keyword.js';
import { enumValues } from '../subset/keywords/enum.js';
import { arrayRules } from '../subset/keywords/array.js';
import { documentingFamilies } from '../subset/keywords/index.js';
import { admitsNoObject, objectRules } from '../subset/keywords/object.js';
import { typeKeyword } from '../subset/keywords/type.js';
import { Code, code, docComment, join } from '../codegen/code.js';

export interface EmittedTypes {
  /** The declarations, built with the code builder like the validators: user text only ever as a literal or a comment. */
  readonly text: string;
  readonly usesJsonValue: boolean;
}

/**
 * `Input`/`Output` declarations for a contract. A root object schema becomes an interface; nested
 * objects are inline type literals, so no invented names appear and a type reads like its schema.
 * Types are printed straight from the IR: the grammar used is small (keywords, literals, unions,
 * arrays, tuples, type literals), and building TypeScript syntax trees for it cost more than the
 * validators.
 */
export function emitTypes(contract: ContractIR, stem: string, exactNumbers: boolean): EmittedTypes {
  let usesJsonValue = false;
  const scope: TypeScope = {
    exactNumbers,
    typeOf: (node, indent) => typeOf(node, scope, indent),
    doc: (node, indent) => docComment(docLines(node), indent),
    jsonValue: () => {
      usesJsonValue = true;
      return code`JsonValue`;
    },
  };
  const declarations = [rootDeclaration(contract.input, Code.identifier(`${stem}Input`), `Input of the \`${contract.name}\` tool.`, scope), rootDeclaration(contract.output, Code.identifier(`${stem}Output`), `Output of the \`${contract.name}\` tool.`, scope)];
  return { text: join(declarations, '\n\n').text, usesJsonValue };
}

/** A type as the members of a union: one entry for a plain type. */
type Union = readonly Code[];

const union = (members: Union): Code => join(members, ' | ');

function rootDeclaration(node: SchemaNode, name: Code, role: string, scope: TypeScope): Code {
  const doc = docComment([role, ...docLines(node)], '');
  if (node.kind === 'object' && node.enum === undefined && !admitsNoObject(node.rules)) return code`${doc}export interface ${name} ${union(objectRules.type(node.rules, scope, ''))}`;
  return code`${doc}export type ${name} = ${union(node.kind === 'any' ? envelopeType(node, scope) : typeOf(node, scope, ''))};`;
}

/**
 * A root without `type` holds what the runtime's envelope lets through, a JSON object or array
 * (a root that can hold neither is JTC127): its object and array rules, or its enum's objects and arrays.
 */
function envelopeType(node: Extract<SchemaNode, { kind: 'any' }>, scope: TypeScope): Union {
  if (node.enum !== undefined) return enumValues.type({ ...node.enum, accepted: node.enum.accepted.filter((value) => value.kind === 'object' || value.kind === 'array') }, scope.exactNumbers);
  return [...objectRules.type(node.rules.object, scope, ''), ...arrayRules.type(node.rules.array, scope, '')];
}

/** `indent` is the indentation of the line the type starts on; nested type literals go deeper. */
function typeOf(node: SchemaNode, scope: TypeScope, indent: string): Union {
  if (node.enum !== undefined) return enumValues.type(node.enum, scope.exactNumbers);
  switch (node.kind) {
    case 'array':
      return arrayRules.type(node.rules, scope, indent);
    case 'object':
      return objectRules.type(node.rules, scope, indent);
    case 'any':
      return [scope.jsonValue()];
    default:
      return typeKeyword.scalarType(node.kind, scope.exactNumbers);
  }
}

/** JSDoc lines: title, description, the annotations, and the constraints types cannot say. */
function docLines(node: SchemaNode): string[] {
  return documentingFamilies.flatMap((family) => family.docLines?.(node, docLines) ?? []);
}
