import { UsageError } from '../diagnostics/usage-error.js';
import { findMember, type JsonMember, type JsonNode } from '../source/json-node.js';
import { parseSourceText } from '../source/parse.js';

/** The formats tool definitions come in, as `--from` names them. */
export const sourceFormats = ['mcp', 'openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;
export type SourceFormat = (typeof sourceFormats)[number];

/** One tool as its source gives it: nothing filled in, nothing dropped. */
export interface SourceTool {
  /** The tool's definition in the source. */
  readonly node: JsonNode;
  readonly name: string | undefined;
  readonly description: string | undefined;
  readonly input: JsonNode | undefined;
  readonly output: JsonNode | undefined;
  /** What the source calls the input and output schemas, for the report. */
  readonly inputField: string;
  readonly outputField: string | undefined;
  /** Why the definition cannot be read as a tool of its format (JTC500), or its TypeScript type has no exact schema (JTC501); the tool is then refused. */
  readonly problem?: { readonly code: 'JTC500' | 'JTC501'; readonly message: string };
  /** What reading the source changed in the schemas' notation (never in their meaning). */
  readonly notes: readonly string[];
  /**
   * Where a source whose schemas are built, not read (TypeScript declarations), declares the
   * input, the output and what it cannot convert: findings are placed there.
   */
  readonly places?: { readonly input?: SourcePlace; readonly output?: SourcePlace; readonly problem?: SourcePlace };
}

/** A place in a source file, for a finding. */
export interface SourcePlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Tool lists are read whole; past this they are a mistake (a wrong file, a runaway server). */
export const maxSourceBytes = 64 * 1024 * 1024;

/** Parses a tool list's text strictly (no duplicate keys, no comments); `origin` names it in errors. */
export function parseToolList(text: string, origin: string): JsonNode {
  if (text.length > maxSourceBytes) throw new UsageError(`${origin}: more than ${maxSourceBytes} bytes; a tool list is never that large`);
  const { root, diagnostics } = parseSourceText(text, Number.POSITIVE_INFINITY);
  const first = diagnostics[0];
  if (first !== undefined) throw new UsageError(`${origin}:${first.position.line}:${first.position.column}: ${first.message}${first.pointer === '' ? '' : ` at ${first.pointer}`}`);
  return root!;
}

const member = (node: JsonNode, key: string): JsonNode | undefined => (node.kind === 'object' ? findMember(node, key)?.value : undefined);
const text = (node: JsonNode | undefined): string | undefined => (node?.kind === 'string' ? node.value : undefined);

/** The format one definition is written in, by the fields only that format has (Gemini's by `functionDeclarations` around them). */
function formatOf(item: JsonNode): SourceFormat | undefined {
  if (member(item, 'parametersJsonSchema') !== undefined) return 'gemini';
  if (member(item, 'inputSchema') !== undefined) return 'mcp';
  if (member(item, 'input_schema') !== undefined) return 'anthropic';
  if (text(member(item, 'type')) === 'function') return member(item, 'function') !== undefined ? 'openai-chat' : 'openai-responses';
  return undefined;
}

/**
 * The definitions a document lists: a `tools/list` result (`{ "tools": [...] }`, also inside a
 * JSON-RPC response), an array of definitions or a request body with `tools`, Gemini's
 * `functionDeclarations` (alone, or inside tools), which are opened up (and say the format).
 */
function definitionsIn(root: JsonNode, origin: string): { readonly definitions: readonly JsonNode[]; readonly declared: boolean } {
  const result = member(root, 'result');
  if (member(root, 'jsonrpc') !== undefined && result !== undefined) return definitionsIn(result, origin);
  const list = root.kind === 'array' ? root : (member(root, 'tools') ?? (member(root, 'functionDeclarations') === undefined ? undefined : root));
  if (list === undefined) throw new UsageError(`${origin}: no tool list found: expected { "tools": [...] }, an array of function definitions, or { "functionDeclarations": [...] }`);
  const items = list.kind === 'array' ? list.items : [list];
  let declared = false;
  const definitions = items.flatMap((item) => {
    const declarations = member(item, 'functionDeclarations');
    if (declarations?.kind !== 'array') return [item];
    declared = true;
    return declarations.items;
  });
  return { definitions, declared };
}

/** Reads every tool of a document, in the format named or the one its definitions are recognised by. */
export function readTools(root: JsonNode, origin: string, format?: SourceFormat): { readonly format: SourceFormat; readonly tools: readonly SourceTool[] } {
  const { definitions, declared } = definitionsIn(root, origin);
  const chosen = format ?? recognise(declared ? [...definitions.map((d) => formatOf(d) ?? 'gemini')] : definitions.map(formatOf), origin);
  return { format: chosen, tools: definitions.map((definition) => readers[chosen](definition)) };
}

function recognise(formats: readonly (SourceFormat | undefined)[], origin: string): SourceFormat {
  const found = [...new Set(formats.filter((f) => f !== undefined))];
  if (found.length === 1) return found[0]!;
  const named = `name it with --from ${sourceFormats.join('|')}`;
  if (found.length === 0) throw new UsageError(`${origin}: cannot tell the format of the tool definitions; ${named}`);
  throw new UsageError(`${origin}: the tool definitions mix formats (${found.join(', ')}); import them apart, or ${named}`);
}

interface Fields {
  readonly name: JsonNode | undefined;
  readonly description: JsonNode | undefined;
  readonly input: JsonMember | undefined;
  readonly output: JsonMember | undefined;
  readonly inputField: string;
  readonly outputField?: string;
}

const noTool = (message: string): NonNullable<SourceTool['problem']> => ({ code: 'JTC500', message });

function sourceTool(node: JsonNode, fields: Fields, notes: readonly string[] = []): SourceTool {
  const name = text(fields.name);
  const problem =
    node.kind !== 'object'
      ? `the definition is ${node.kind === 'array' ? 'an array' : `a ${node.kind}`}, not an object`
      : name === undefined
        ? 'the definition has no "name" string'
        : fields.description !== undefined && fields.description.kind !== 'string'
          ? `"description" is ${fields.description.kind}, not a string`
          : undefined;
  const base = { node, name, description: text(fields.description), input: fields.input?.value, output: fields.output?.value, inputField: fields.input?.key ?? fields.inputField, outputField: fields.output?.key ?? fields.outputField, notes };
  return problem === undefined ? base : { ...base, problem: noTool(problem) };
}

const memberOf = (node: JsonNode | undefined, key: string): JsonMember | undefined => (node?.kind === 'object' ? findMember(node, key) : undefined);

const readers: Readonly<Record<SourceFormat, (node: JsonNode) => SourceTool>> = {
  mcp: (node) => sourceTool(node, { name: member(node, 'name'), description: member(node, 'description'), input: memberOf(node, 'inputSchema'), output: memberOf(node, 'outputSchema'), inputField: 'inputSchema', outputField: 'outputSchema' }),
  anthropic: (node) => sourceTool(node, { name: member(node, 'name'), description: member(node, 'description'), input: memberOf(node, 'input_schema'), output: undefined, inputField: 'input_schema' }),
  'openai-chat': (node) => {
    const fn = member(node, 'function');
    const tool = sourceTool(fn ?? node, { name: member(fn ?? node, 'name'), description: member(fn ?? node, 'description'), input: memberOf(fn, 'parameters'), output: undefined, inputField: 'function.parameters' });
    return fn === undefined ? { ...tool, problem: noTool('the definition has no "function" object') } : tool;
  },
  'openai-responses': (node) => sourceTool(node, { name: member(node, 'name'), description: member(node, 'description'), input: memberOf(node, 'parameters'), output: undefined, inputField: 'parameters' }),
  gemini: readGemini,
};

/** Gemini's `parameters`/`response` (its OpenAPI-style Schema) name types in upper case (`STRING`); JSON Schema's are lower case. */
const geminiTypeNames: ReadonlySet<string> = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/** The schema with Gemini's type names in lower case, or the same node when it has none. */
function lowerCaseTypeNames(node: JsonNode): JsonNode {
  if (node.kind === 'array') {
    const items = node.items.map(lowerCaseTypeNames);
    return items.every((item, index) => item === node.items[index]) ? node : { ...node, items };
  }
  if (node.kind !== 'object') return node;
  const members = node.members.map((m) => (m.key === 'type' && m.value.kind === 'string' && geminiTypeNames.has(m.value.value) ? { ...m, value: { ...m.value, value: m.value.value.toLowerCase() } } : { ...m, value: lowerCaseTypeNames(m.value) }));
  return members.every((m, index) => m.value === node.members[index]!.value) ? node : { ...node, members };
}

function readGemini(node: JsonNode): SourceTool {
  const jsonSchema = memberOf(node, 'parametersJsonSchema');
  const openApi = memberOf(node, 'parameters');
  const responseJsonSchema = memberOf(node, 'responseJsonSchema');
  const response = memberOf(node, 'response');
  const notes: string[] = [];
  const fromOpenApi = (field: JsonMember | undefined): JsonMember | undefined => {
    if (field === undefined) return undefined;
    const value = lowerCaseTypeNames(field.value);
    if (value !== field.value) notes.push(`Gemini "${field.key}" names types in upper case; they are written in lower case, as JSON Schema names them`);
    return { ...field, value };
  };
  const tool = sourceTool(node, { name: member(node, 'name'), description: member(node, 'description'), input: jsonSchema ?? fromOpenApi(openApi), output: responseJsonSchema ?? fromOpenApi(response), inputField: 'parametersJsonSchema', outputField: 'responseJsonSchema' }, notes);
  if (jsonSchema !== undefined && openApi !== undefined) return { ...tool, problem: noTool('the declaration has both "parameters" and "parametersJsonSchema"; Gemini takes one') };
  return tool;
}
