import { checkContract } from '../contract/check-contract.js';
import { checkToolNames } from '../contract/check-contracts.js';
import { toolNameProblem } from '../contract/names.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic, Position } from '../diagnostics/diagnostic.js';
import type { JsonMember, JsonNode } from '../source/json-node.js';
import type { KeywordRewrite } from '../subset/keyword.js';
import { nodeAt } from '../source/json-node.js';
import { LineMap, parseSourceText } from '../source/parse.js';
import { applyEdits } from '../source/edits.js';
import { exactRewrite } from '../subset/rewrites.js';
import { canonicalJson } from '../ir/canonical.js';
import { renderJson } from './render.js';
import type { SourceTool } from './sources.js';

/** What the report says of one tool, with its place in the written contract (or the source) where it has one. */
export interface Finding {
  readonly kind: 'error' | 'warning' | 'rewrite' | 'note';
  readonly code?: DiagnosticCode;
  /** The written contract file, or the source file for a refused tool; absent when the finding has no place. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** JSON Pointer into the contract. */
  readonly pointer: string;
  readonly message: string;
  readonly hint?: string;
}

export interface ToolResult {
  /** The tool's name as the source gives it (absent when it gives none). */
  readonly sourceName: string | undefined;
  /** The contract's tool name. */
  readonly name: string | undefined;
  readonly status: 'imported' | 'refused';
  /** The contract file (relative to the output folder) and its text, when imported. */
  readonly file?: string;
  readonly text?: string;
  /** How many exact rewrites were applied. */
  readonly rewrites: number;
  readonly findings: readonly Finding[];
}

export interface ImportOptions {
  /** The output folder as the user named it, for the places in the report. */
  readonly outDir: string;
  /** The source file, when the tools come from one: places of refused tools point into it. */
  readonly sourceFile?: string;
  /**
   * `--unchecked-output`: a tool whose output schema alone is outside the subset is imported with
   * an output that accepts any JSON value, the source's schema kept in its description and the
   * report saying so, instead of being refused whole.
   */
  readonly uncheckedOutput?: boolean;
  /** Contract names imported as with `uncheckedOutput` whatever it says: those committed so (`--check` reads the record their outputs carry). */
  readonly uncheckedOutputFor?: ReadonlySet<string>;
}

/** How the description of an output written by `--unchecked-output` starts: the contract's record that the flag was used. */
export const uncheckedOutputMark = "Not checked: the source's output schema is outside the subset";

/** A tool needs this many rewrites at most; more means something keeps rewriting, and the tool is refused. */
const maxRewrites = 1000;
const contractSuffix = '.contract.json';

/**
 * Imports every tool on its own: its contract with exact rewrites only, or its refusal with
 * what stopped it. Then the set: a later tool whose name (or generated names) an earlier one
 * already uses is refused. Nothing is guessed and no tool is left out of the result.
 */
export function importTools(tools: readonly SourceTool[], options: ImportOptions): ToolResult[] {
  const names = contractNames(tools);
  const results = tools.map((tool, index) => importTool(tool, names[index]!, options));
  // One set check over every imported tool, in source order, so the earlier one keeps its name.
  // Each tool is named by its label, which the messages then quote.
  const entries = results.flatMap((result, index) => (result.status === 'imported' ? [{ index, file: `tool ${index + 1} (${JSON.stringify(result.sourceName)})`, name: result.name!, namePosition: positionIn(result.text!, '/name') }] : []));
  const indexOf = new Map(entries.map((entry) => [entry.file, entry.index]));
  for (const collision of checkToolNames(entries, { inGivenOrder: true }).diagnostics) {
    const index = indexOf.get(collision.file)!;
    const { sourceName, name, findings } = results[index]!;
    results[index] = {
      sourceName,
      name,
      status: 'refused',
      rewrites: 0,
      findings: [{ kind: 'error', code: collision.code, pointer: collision.pointer, message: collision.message, ...hintOf(collision) }, ...findings.filter((f) => f.kind === 'note').map(({ file: _file, line: _line, column: _column, ...note }) => note)],
    };
  }
  return results;
}

/**
 * Contract names for the source's names: a name within the rules stays; another is mapped, each
 * character outside them becoming `_` (and `_` before a segment that starts with a digit or `-`),
 * and reported. Two source names that would meet are refused in `importTools` by the set check.
 */
function contractNames(tools: readonly SourceTool[]): (string | undefined)[] {
  return tools.map((tool) => {
    if (tool.name === undefined || toolNameProblem(tool.name) === undefined) return tool.name;
    const mapped = tool.name
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .split('.')
      .map((segment) => (/^[A-Za-z_]/.test(segment) ? segment : `_${segment}`))
      .join('.');
    return toolNameProblem(mapped) === undefined ? mapped : undefined;
  });
}

function importTool(tool: SourceTool, name: string | undefined, options: ImportOptions): ToolResult {
  const base = { sourceName: tool.name, name, rewrites: 0 };
  const notes = toolNotes(tool, name);
  const refuse = (findings: readonly Finding[]): ToolResult => ({ ...base, status: 'refused', findings: [...findings, ...notes.map((n) => n.finding)] });
  if (tool.problem !== undefined) return { ...base, status: 'refused', findings: [{ kind: 'error', code: tool.problem.code, pointer: '', message: tool.problem.message, ...(tool.places?.problem ?? placeIn(options.sourceFile, tool.node.position)) }] };
  if (name === undefined) return refuse([{ kind: 'error', code: 'JTC122', pointer: '/name', message: `tool name ${JSON.stringify(tool.name)} ${toolNameProblem(tool.name!)}, and no mapping gives a valid one`, hint: 'rename the tool in its source', ...placeIn(options.sourceFile, tool.node.position) }]);
  const file = `${name}${contractSuffix}`;
  const shown = `${options.outDir}/${file}`;

  let text = renderContract(name, tool);
  const rewrites: { readonly title: string; readonly pointer: string }[] = [];
  let diagnostics = checkContract(text, shown).diagnostics;
  for (;;) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0) break;
    const root = parseSourceText(text).root!;
    const lines = new LineMap(text);
    const rewrite = rewrites.length < maxRewrites ? errors.map((d) => keywordRewrite(text, root, d, lines)).find((r) => r !== undefined) : undefined;
    if (rewrite === undefined) {
      const unchecked = options.uncheckedOutput === true || options.uncheckedOutputFor?.has(name) === true;
      if (unchecked && tool.output !== undefined && errors.every((d) => schemaRootOf(d.pointer) === '/output')) return withUncheckedOutput(tool, name, options, errors);
      return refuse(errors.map((d) => ({ kind: 'error', code: d.code, pointer: d.pointer, message: d.message, ...hintOf(d), ...sourcePlace(tool, d.pointer, options.sourceFile) })));
    }
    rewrites.push(rewrite);
    text = `${renderJson(parseSourceText(applyEdits(text, rewrite.edits)).root!)}\n`;
    diagnostics = checkContract(text, shown).diagnostics;
  }

  const findings: Finding[] = [
    ...rewrites.map((r): Finding => ({ kind: 'rewrite', pointer: r.pointer, message: r.title, ...placeIn(shown, positionIn(text, r.pointer)) })),
    ...notes.map(({ pointer, finding }) => ({ ...finding, ...placeIn(shown, positionIn(text, pointer)) })),
    ...diagnostics.map((d): Finding => ({ kind: 'warning', code: d.code, file: d.file, line: d.line, column: d.column, pointer: d.pointer, message: d.message, ...hintOf(d) })),
  ];
  findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { ...base, status: 'imported', file, text, rewrites: rewrites.length, findings };
}

/**
 * The tool imported with an output that accepts any JSON value, because its own output schema is
 * outside the subset (`errors`) and the user asked for it. The schema is kept, exactly, in the
 * output's description: where a reader of the contract, and of the generated module's JSDoc, sees it.
 */
function withUncheckedOutput(tool: SourceTool, name: string, options: ImportOptions, errors: readonly Diagnostic[]): ToolResult {
  const output = tool.output!;
  const why = errors.map((d) => `${d.code} at ${d.pointer}`).join(', ');
  const description = `${uncheckedOutputMark} (${why}), so jtc import --unchecked-output let any JSON value through. The schema as the source gives it (compact, keys sorted): ${canonicalJson(output)}`;
  const unchecked: JsonNode = { kind: 'object', position: output.position, pointer: output.pointer, members: [{ key: 'description', keyPosition: output.position, value: { kind: 'string', value: description, position: output.position, pointer: output.pointer } }] };
  const { uncheckedOutputFor: _committedSo, ...rest } = options;
  const result = importTool({ ...tool, output: unchecked }, name, { ...rest, uncheckedOutput: false });
  if (result.status !== 'imported') return result;
  const warning: Finding = {
    kind: 'warning',
    code: 'JTC550',
    pointer: '/output',
    message: `the output schema is outside the subset (${why}); imported as any JSON value, unchecked (--unchecked-output), with the source's schema kept in /output/description`,
    hint: 'a typed client checks nothing of its results; write an output schema within the subset by hand to have them checked',
    ...placeIn(`${options.outDir}/${result.file}`, positionIn(result.text!, '/output')),
  };
  return { ...result, findings: [...result.findings, warning].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
}

/** What the source lacks or names otherwise, said where it shows in the contract. */
function toolNotes(tool: SourceTool, name: string | undefined): { readonly pointer: string; readonly finding: Finding }[] {
  const note = (pointer: string, message: string, hint?: string) => ({ pointer, finding: { kind: 'note', pointer, message, ...(hint === undefined ? {} : { hint }) } as Finding });
  const notes = tool.notes.map((message) => note('', message));
  if (name !== undefined && name !== tool.name)
    notes.push(
      note(
        '/name',
        `the source names the tool ${JSON.stringify(tool.name)}, which ${toolNameProblem(tool.name!)}; imported as ${JSON.stringify(name)}`,
        'a host adapter offers it under its contract name, and a typed client (mcpToolClient) calls that name, which the source does not list; rename it in the source to keep one name',
      ),
    );
  if (tool.description === undefined || tool.description.trim() === '') notes.push(note('/description', 'the source gives the tool no description, and a contract needs one', 'add a description in the source (models read it to choose the tool), then import again'));
  if (tool.input === undefined) notes.push(note('/input', `the source gives no input schema ("${tool.inputField}"); the input accepts any JSON value ({})`));
  if (tool.output === undefined) notes.push(note('/output', `the source gives no output schema${tool.outputField === undefined ? '' : ` ("${tool.outputField}")`}; the output accepts any JSON value ({})`, 'write the output schema by hand to have results checked'));
  return notes;
}

const emptyObject = (node: JsonNode): JsonNode => ({ kind: 'object', position: node.position, pointer: node.pointer, members: [] });

/** The contract as the source gives it, before any rewrite; a missing description stays empty (and refused). */
function renderContract(name: string, tool: SourceTool): string {
  const at = tool.node.position;
  const string = (value: string): JsonNode => ({ kind: 'string', value, position: at, pointer: '' });
  const field = (key: string, value: JsonNode): JsonMember => ({ key, keyPosition: at, value });
  const members = [field('name', string(name)), field('description', string(tool.description ?? '')), field('input', tool.input ?? emptyObject(tool.node)), field('output', tool.output ?? emptyObject(tool.node))];
  return `${renderJson({ kind: 'object', position: at, pointer: '', members })}\n`;
}

/** The table's exact rewrite for an error at a keyword (the syntax and warning rewrites are the editor's). */
function keywordRewrite(text: string, root: JsonNode, diagnostic: Diagnostic, lines: LineMap): KeywordRewrite | undefined {
  const rewrite = exactRewrite(text, root, { code: diagnostic.code, pointer: diagnostic.pointer, offset: lines.offset(diagnostic.line, diagnostic.column) });
  return rewrite !== undefined && 'pointer' in rewrite ? rewrite : undefined;
}

/** The root schema a pointer belongs to (`/input`, `/output`), whose local references it resolves against. */
function schemaRootOf(pointer: string): string {
  return pointer.slice(0, pointer.indexOf('/', 1) === -1 ? pointer.length : pointer.indexOf('/', 1));
}

const hintOf = (d: Pick<Diagnostic, 'hint'>): { hint?: string } => (d.hint === undefined ? {} : { hint: d.hint });

function placeIn(file: string | undefined, position: Position | undefined): Pick<Finding, 'file' | 'line' | 'column'> {
  return file === undefined || position === undefined ? {} : { file, line: position.line, column: position.column };
}

/** Where a pointer stands in a contract's text: the value, or the nearest enclosing one that is still there. */
export function positionIn(text: string, pointer: string): Position {
  const root = parseSourceText(text).root!;
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf('/'))) {
    const node = nodeAt(root, at);
    if (node !== undefined) return node.position;
  }
}

/** A refused tool's finding in the source file, when the contract pointer leads to the same place there. */
function sourcePlace(tool: SourceTool, pointer: string, sourceFile: string | undefined): Pick<Finding, 'file' | 'line' | 'column'> {
  const root = schemaRootOf(pointer);
  const declared = root === '/input' ? tool.places?.input : root === '/output' ? tool.places?.output : undefined;
  if (declared !== undefined) return declared;
  const schema = root === '/input' ? tool.input : root === '/output' ? tool.output : undefined;
  const node = schema === undefined ? undefined : nodeAt(schema, pointer.slice(root.length));
  return placeIn(sourceFile, (node ?? tool.node).position);
}
