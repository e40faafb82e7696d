import { Option } from 'commander';
import type { CliCommand } from './command.js';
import { readFileSync, statSync } from 'node:fs';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';
import { importTools, type Finding, type ToolResult } from '../import/import-tools.js';
import { listToolsOverHttp, listToolsOverStdio } from '../import/mcp-client.js';
import { maxSourceBytes, parseToolList, readTools, sourceFormats, type SourceFormat, type SourceTool } from '../import/sources.js';
import { findInvalidUtf8 } from '../source/utf8.js';
import { readTypeScriptTools } from '../import/typescript.js';
import { writeContracts } from '../import/write-contracts.js';
import type { SourceText } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { escapeForTerminal, formatDiagnostic } from '../diagnostics/diagnostic.js';
import { driftOf, uncheckedOutputTools, type DriftReport, type DriftStatus } from '../import/drift.js';
import { formatOption } from './options.js';
import { formatReport, summarize, type OutputFormat } from './report.js';

/** Where the tools come from: a file (a tool list, provider definitions), or a live MCP server. */
export type ImportSource = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'stdio'; readonly command: string } | { readonly kind: 'url'; readonly url: string };

export interface ImportCommandOptions {
  readonly source: ImportSource;
  /** The format of a file, when it is not to be recognised. */
  readonly from?: SourceFormat | 'ts';
  /** Where the contracts go: written to `write`, or compared with those in `check` (nothing written). */
  readonly target: { readonly write: string } | { readonly check: string };
  readonly format: OutputFormat;
  /** How long one request to a live server may take, in milliseconds. */
  readonly timeoutMs: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Import a tool whose output alone is outside the subset with an unchecked output (said in the report). */
  readonly uncheckedOutput: boolean;
}

/** What --from takes: a definitions format, or `ts` for TypeScript declarations. */
const fromChoices: readonly (SourceFormat | 'ts')[] = [...sourceFormats, 'ts'];

/** Reads `jtc import`'s options, as commander parsed them, into what the import needs. */
export function importOptionsOf(files: readonly string[], values: ImportFlags): ImportCommandOptions {
  const sources = [...files.map((path) => ({ kind: 'file', path }) as const), ...(values.stdio === undefined ? [] : [{ kind: 'stdio', command: values.stdio } as const]), ...(values.url === undefined ? [] : [{ kind: 'url', url: values.url } as const])];
  if (sources.length !== 1) throw new UsageError('import: name one source: a file, --stdio "<command>" or --url <endpoint> (jtc import --help)');
  const source = sources[0]!;
  const from = values.from;
  if (from !== undefined && source.kind !== 'file' && from !== 'mcp') throw new UsageError(`--from ${from}: a live server lists MCP tools; --from names the format of a file`);
  const timeoutMs = timeoutOf(values.timeout);
  const headers = headersOf(values.header);
  if ((values.out === undefined) === (values.check === undefined)) throw new UsageError('import: name where the contracts go: -o <dir> to write them, or --check <dir> to compare the committed ones with the source');
  const target = values.out === undefined ? { check: values.check! } : { write: values.out };
  return { source, ...(from === undefined ? {} : { from: from as SourceFormat | 'ts' }), target, format: values.format, timeoutMs, headers, uncheckedOutput: values.uncheckedOutput === true };
}

/** `--header`'s "Name: value" entries, by lower-case name. */
export function headersOf(entries: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of entries) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", not "${header}"`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  return headers;
}

/** The longest wait a timer can take (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
const maxTimeoutMs = 2 ** 31 - 1;

/** `--timeout`'s seconds as whole milliseconds (rounded up, so never 0): a decimal number above 0 and within a timer's reach. */
export function timeoutOf(text: string): number {
  const ms = /^\d+(\.\d+)?$/.test(text) ? Math.ceil(Number(text) * 1000) : Number.NaN;
  if (!(ms > 0 && ms <= maxTimeoutMs)) throw new UsageError(`--timeout takes a number of seconds above 0 and at most ${Math.floor(maxTimeoutMs / 1000)} (about 24 days), not "${text}"`);
  return ms;
}

interface ImportFlags {
  readonly out?: string;
  readonly check?: string;
  readonly from?: string;
  readonly stdio?: string;
  readonly url?: string;
  readonly header: readonly string[];
  readonly timeout: string;
  readonly format: OutputFormat;
  readonly uncheckedOutput?: boolean;
}

/** Reads the source, imports every tool, writes the imported contracts and reports; returns the exit code. */
export async function runImport(options: ImportCommandOptions, write: (text: string) => void): Promise<number> {
  const { tools, sourceFile } = await toolsOf(options);
  const out = 'write' in options.target ? options.target.write : options.target.check;
  const importOptions = { outDir: out, uncheckedOutput: options.uncheckedOutput, ...(sourceFile === undefined ? {} : { sourceFile }) };
  if ('check' in options.target) {
    const committed = committedContracts(out);
    // A contract committed with an unchecked output records the flag: its tool is compared as it was imported.
    const results = importTools(tools, { ...importOptions, uncheckedOutputFor: uncheckedOutputTools(committed) });
    return reportDrift(driftOf(committed, tools, results, { dir: out }), options.format, write);
  }
  const results = importTools(tools, importOptions);
  writeContracts(
    out,
    results.flatMap((result) => (result.status === 'imported' ? [{ path: result.file!, text: result.text! }] : [])),
  );
  const summary = {
    tools: results.length,
    imported: results.filter((r) => r.status === 'imported').length,
    rewritten: results.filter((r) => r.status === 'imported' && r.rewrites > 0).length,
    refused: results.filter((r) => r.status === 'refused').length,
  };
  write(options.format === 'json' ? `${JSON.stringify({ tools: results.map(({ text: _text, ...result }) => result), summary }, null, 2)}\n` : textReport(results, summary, out));
  return summary.refused > 0 ? 1 : 0;
}

async function toolsOf(options: ImportCommandOptions): Promise<{ readonly tools: readonly SourceTool[]; readonly sourceFile?: string }> {
  const { source } = options;
  if (source.kind === 'stdio' || source.kind === 'url') {
    const client = { timeoutMs: options.timeoutMs, headers: options.headers };
    const definitions = source.kind === 'stdio' ? await listToolsOverStdio(source.command, client) : await listToolsOverHttp(source.url, client);
    return { tools: readTools({ kind: 'array', items: definitions, position: { line: 1, column: 1, offset: 0 }, pointer: '' }, 'server', 'mcp').tools };
  }
  const path = source.path;
  if (!withIoErrors(path, () => statSync(path)).isFile()) throw new UsageError(`${path}: not a regular file`);
  // The declarations' schemas are built, not read: findings have no place in the .ts file.
  if (options.from === 'ts') return { tools: await readTypeScriptTools(path) };
  return { tools: readTools(parseToolList(readToolListFile(path), path), path, options.from).tools, sourceFile: path };
}

/** A tool list file's text: within the size a tool list may have, and UTF-8 (anything else is refused, never read with replacement characters). */
function readToolListFile(path: string): string {
  if (withIoErrors(path, () => statSync(path)).size > maxSourceBytes) throw new UsageError(`${path}: more than ${maxSourceBytes} bytes; a tool list is never that large`);
  const bytes = withIoErrors(path, () => readFileSync(path));
  const invalidAt = findInvalidUtf8(bytes);
  if (invalidAt >= 0) {
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) ? ' (it looks like UTF-16)' : '';
    throw new UsageError(`${path}: invalid UTF-8 byte 0x${bytes[invalidAt]!.toString(16).padStart(2, '0')} at byte offset ${invalidAt}${utf16}; save the tool list as UTF-8`);
  }
  // ignoreBOM keeps a byte order mark for the parser, which skips one.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** The committed contracts of a --check folder, read as jtc diff reads a version. */
function committedContracts(dir: string): SourceText[] {
  if (!withIoErrors(dir, () => statSync(dir)).isDirectory()) throw new UsageError(`--check ${dir}: not a folder; name the folder of the committed contracts`);
  const committed = readContractSources(discoverContracts([dir])).map((source) => ({ file: source.file, text: source.bytes }));
  // Every server tool would be "new" and the check would pass: a wrong folder must not look like no drift.
  if (committed.length === 0) throw new UsageError(`--check ${dir}: no *.contract.json in this folder; name the folder of the committed contracts`);
  return committed;
}

const driftLabels: Record<DriftStatus, string> = {
  unchanged: 'unchanged',
  drifted: 'drifted',
  missing: 'missing from the server',
  new: 'new on the server',
  unreadable: 'changed beyond what the import reads: cannot be compared',
  duplicate: 'listed more than once by the server: cannot be compared',
};

/** Each tool that is not unchanged, with its changes, findings and notes; then a summary. Exit 1 when one breaks the committed contracts. */
function reportDrift(report: DriftReport, format: OutputFormat, write: (text: string) => void): number {
  if (!report.ok) {
    write(formatReport(format, report.problems, summarize(0, report.problems), {}, ['import --check: the committed contracts have errors; fix them to compare']));
    return 1;
  }
  const count = (status: DriftStatus): number => report.tools.filter((tool) => tool.status === status).length;
  const summary = { tools: report.tools.length, unchanged: count('unchanged'), drifted: count('drifted'), missing: count('missing'), new: count('new'), unreadable: count('unreadable'), duplicate: count('duplicate'), breaking: report.tools.filter((tool) => tool.breaking).length };
  if (format === 'json') {
    write(`${JSON.stringify({ tools: report.tools, summary }, null, 2)}\n`);
  } else {
    const lines = report.tools
      .filter((tool) => tool.status !== 'unchanged' || tool.notes.length > 0)
      .flatMap((tool) => [
        escapeForTerminal(`${JSON.stringify(tool.name)}: ${driftLabels[tool.status]}${tool.status === 'drifted' ? (tool.breaking ? ', breaking' : ', compatible') : ''}`),
        ...tool.changes.map((change) => `  ${formatDiagnostic(change)}`),
        ...tool.findings.map(findingLine),
        ...tool.notes.map((note) => escapeForTerminal(`  note: ${note}`)),
      ]);
    // Only a broken server lists a name twice: the count shows when there is one.
    const duplicates = summary.duplicate === 0 ? '' : `, ${summary.duplicate} listed more than once`;
    lines.push(`${plural(summary.tools, 'tool')}: ${summary.unchanged} unchanged, ${summary.drifted} drifted, ${summary.missing} missing, ${summary.new} new, ${summary.unreadable} unreadable${duplicates}; ${summary.breaking} breaking`);
    write(`${lines.join('\n')}\n`);
  }
  return summary.breaking > 0 ? 1 : 0;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function label(result: ToolResult, index: number): string {
  const source = result.sourceName === undefined ? `tool ${index + 1}` : JSON.stringify(result.sourceName);
  return result.name === undefined || result.name === result.sourceName ? source : `${source} (as ${result.name})`;
}

function findingLine(finding: Finding): string {
  const place = finding.file === undefined ? '' : `${finding.file}:${finding.line}:${finding.column} - `;
  const code = finding.code === undefined ? '' : ` ${finding.code}`;
  const where = finding.pointer === '' ? '' : ` at ${finding.pointer}`;
  const hint = finding.hint === undefined ? '' : ` (${finding.hint})`;
  return `  ${place}${finding.kind}${code}: ${finding.message}${where}${hint}`;
}

function textReport(results: readonly ToolResult[], summary: { tools: number; imported: number; rewritten: number; refused: number }, out: string): string {
  const lines = results.flatMap((result, index) => {
    const rewrites = result.rewrites === 0 ? '' : `, ${plural(result.rewrites, 'rewrite')}`;
    const head = result.status === 'imported' ? `${label(result, index)}: imported as ${out}/${result.file}${rewrites}` : `${label(result, index)}: refused`;
    return [head, ...result.findings.map(findingLine)];
  });
  lines.push(`${plural(summary.tools, 'tool')}: ${summary.imported} imported (${summary.rewritten} rewritten), ${summary.refused} refused`);
  return `${lines.join('\n')}\n`;
}

/** `jtc import`: contracts from tools that exist. */
export const importCommand: CliCommand = (program, context) => {
  program
    .command('import')
    .summary('write contracts from tools that exist: a tools/list file, provider function definitions, or a live MCP server')
    .description(
      "Write one *.contract.json per tool from tools that exist: an MCP tools/list result, OpenAI (Chat or Responses), Anthropic or Gemini function definitions, TypeScript declarations (--from ts), or a live MCP server. Only exact rewrites are applied, each reported; a tool that needs anything else is refused with what stopped it. Exit codes: 0 every tool imported, 1 some refused, 2 usage, I/O or server errors. With --check <dir> instead of -o, nothing is written: each tool that drifted from its committed contract, is missing or is new is reported with jtc diff's classification; exit 1 when a change breaks the committed contracts.",
    )
    .argument('[file]', 'a tools/list result, provider function definitions or TypeScript declarations')
    .option('-o, --out <dir>', 'the contracts folder to write')
    .option('--check <dir>', 'write nothing: compare the contracts committed in this folder with the source, exit 1 when a change breaks them')
    .addOption(new Option('--from <format>', 'the format of the file, when it is not to be recognised').choices(fromChoices))
    .option('--stdio <command>', 'a live MCP server: the command that starts it over stdio')
    .option('--url <endpoint>', 'a live MCP server: its Streamable HTTP endpoint')
    .option('--header <header>', 'an HTTP header for --url, "Name: value" (repeatable)', (header: string, previous: string[]) => [...previous, header], [] as string[])
    .option('--timeout <seconds>', 'how long one request to a live server may take', '60')
    .option('--unchecked-output', "import a tool whose output schema alone is outside the subset with an output that accepts any JSON value (the source's schema kept in its description, a warning in the report) instead of refusing it")
    .addOption(formatOption())
    .action(async (file: string | undefined, flags: ImportFlags) => {
      context.exitCode = await runImport(importOptionsOf(file === undefined ? [] : [file], flags), context.write);
    });
};
