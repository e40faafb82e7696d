import { appendPointer, compareDiagnostics, makeDiagnostic, type Diagnostic, type DiagnosticInput, type Position } from '../diagnostics/diagnostic.js';
import { canonicalJson, sha256Hex } from '../ir/canonical.js';
import { findMember, type JsonNode } from '../source/json-node.js';
import { parseSourceBytes, parseSourceText } from '../source/parse.js';
import { checkSchema } from '../subset/check-schema.js';
import { numericReading } from '../subset/numeric-reading.js';
import { findSchemaWarnings } from '../subset/warnings.js';
import type { ContractIR } from '../ir/contract-ir.js';
import type { SchemaNode } from '../ir/schema-node.js';
import { typeKeyword } from '../subset/keywords/type.js';
import { generatedNameProblem, toolNameProblem } from './names.js';
import { contractFindings, positionIndex, positionOf } from './targets.js';

export interface CheckOptions {
  /** Keep every digit of numeric bounds (`--exact-numbers`); default: round to the nearest f64. */
  readonly exactNumbers?: boolean;
  /** Target profiles (`--target`) whose findings are added: `openai-strict`, `mcp-2025-11-25`, … */
  readonly targets?: readonly string[];
}

export interface CheckResult {
  /** Present when the contract has no error (it may have warnings). */
  readonly contract: ContractIR | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

const contractFields = ['$schema', 'name', 'description', 'input', 'output'] as const;
const requiredFields = ['name', 'description', 'input', 'output'] as const;

/**
 * source → parse (with positions) → contract shape → subset check → IR. Takes text or the file's
 * bytes (bytes are checked for UTF-8 first) and never touches the file system.
 */
export function checkContract(source: string | Uint8Array, file: string, options: CheckOptions = {}): CheckResult {
  const diagnostics: Diagnostic[] = [];
  const report = (input: DiagnosticInput): void => {
    diagnostics.push(makeDiagnostic(file, input));
  };
  const parsed = typeof source === 'string' ? parseSourceText(source) : parseSourceBytes(source);
  parsed.diagnostics.forEach(report);
  const root = parsed.root;
  if (root === undefined) return { contract: undefined, diagnostics };
  if (root.kind !== 'object') {
    report({ code: 'JTC106', position: root.position, pointer: '', message: `a contract file must hold one JSON object, found ${root.kind}`, hint: 'see the contract format in the README' });
    return { contract: undefined, diagnostics };
  }

  for (const member of root.members) {
    if (!(contractFields as readonly string[]).includes(member.key)) {
      report({
        code: 'JTC121',
        position: member.keyPosition,
        pointer: member.value.pointer,
        message: `unknown contract field ${JSON.stringify(member.key)}`,
        hint: `a contract has only ${contractFields.join(', ')}`,
      });
    }
  }
  const field = (key: (typeof requiredFields)[number]): JsonNode | undefined => {
    const value = findMember(root, key)?.value;
    if (value === undefined) report({ code: 'JTC120', position: root.position, pointer: '', message: `missing contract field "${key}"`, hint: `add "${key}"` });
    return value;
  };
  const name = textField(field('name'), 'JTC122', 'name', report);
  const description = textField(field('description'), 'JTC123', 'description', report);
  if (name !== undefined) {
    const problem = toolNameProblem(name.value);
    const generated = problem === undefined ? generatedNameProblem(name.value) : undefined;
    if (problem !== undefined) report({ code: 'JTC122', position: name.position, pointer: '/name', message: `tool name ${JSON.stringify(name.value)} ${problem}`, hint: 'e.g. "math.add" or "github.create_issue"' });
    else if (generated !== undefined) report({ code: 'JTC126', position: name.position, pointer: '/name', message: `tool name ${JSON.stringify(name.value)} ${generated}`, hint: 'rename the tool (e.g. "math.add"): its name gives the module file, the type names and the index export' });
  }
  if (description !== undefined && description.value.trim() === '') {
    report({ code: 'JTC123', position: description.position, pointer: '/description', message: 'description is empty', hint: 'say what the tool does: models read it to decide when to call the tool' });
  }

  const exactNumbers = options.exactNumbers ?? false;
  const numeric = numericReading(exactNumbers);
  const schemaOf = (source: JsonNode | undefined) => {
    if (source === undefined) return undefined;
    const schema = checkSchema(source, { exactNumbers }, report);
    if (schema !== undefined) findSchemaWarnings(schema, numeric, report);
    return schema;
  };
  const input = schemaOf(field('input'));
  const output = schemaOf(field('output'));
  for (const [side, schema] of [
    ['input', input],
    ['output', output],
  ] as const) {
    const problem = schema === undefined ? undefined : rootProblem(side, schema, (pointer) => positionOf(positionIndex(root), pointer, schema.position));
    if (problem !== undefined) report(problem);
  }

  if (name && input && output) {
    const positions = positionIndex(root);
    for (const finding of contractFindings({ name: name.value, input, output }, options.targets ?? [])) {
      report({ code: finding.code, position: positionOf(positions, finding.pointer, root.position), pointer: finding.pointer, message: finding.message, hint: finding.hint });
    }
  }

  diagnostics.sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error') || !name || !description || !input || !output) {
    return { contract: undefined, diagnostics };
  }
  return {
    contract: {
      file,
      name: name.value,
      namePosition: name.position,
      description: description.value,
      input,
      output,
      hash: sha256Hex(canonicalJson(root)),
      exactNumbers,
    },
    diagnostics,
  };
}

/**
 * The runtime's envelope takes a JSON object or array only (the spec's call boundary), so a root
 * that can hold neither would build a tool whose every call fails.
 */
function rootProblem(side: 'input' | 'output', schema: SchemaNode, positionAt: (pointer: string) => Position): DiagnosticInput | undefined {
  const hint = `a tool's ${side} is a JSON object or array: wrap the value in an object, e.g. {"type": "object", "properties": {"value": …}, "required": ["value"]}`;
  const message = (what: string) => `the ${side} root ${what}, so it can never be a JSON object or array, the only values the runtime takes`;
  if (schema.kind !== 'any' && schema.kind !== 'object' && schema.kind !== 'array') {
    const pointer = appendPointer(schema.pointer, typeKeyword.definition.keyword);
    return { code: 'JTC127', position: positionAt(pointer), pointer, message: message(`is of type "${schema.kind}"`), hint };
  }
  const members = schema.enum?.values ?? [];
  if (members.length > 0 && members.every((value) => value.kind !== 'object' && value.kind !== 'array')) {
    return { code: 'JTC127', position: schema.enum!.position, pointer: schema.enum!.pointer, message: message('is an enum of scalars only'), hint };
  }
  return undefined;
}

function textField(node: JsonNode | undefined, code: 'JTC122' | 'JTC123', key: string, report: (d: DiagnosticInput) => void): { value: string; position: Position } | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'string') {
    report({ code, position: node.position, pointer: `/${key}`, message: `"${key}" must be a string, found ${node.kind}` });
    return undefined;
  }
  return { value: node.value, position: node.position };
}
