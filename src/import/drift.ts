import { portableName } from '@json-tool-contracts/runtime/internal';
import { checkContracts, type SourceText } from '../contract/check-contracts.js';
import { compareDiagnostics, hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import { diffContracts } from '../diff/diff-contracts.js';
import type { ContractIR } from '../ir/contract-ir.js';
import { positionIn, uncheckedOutputMark, type Finding, type ToolResult } from './import-tools.js';
import type { SourceTool } from './sources.js';

/**
 * A server's tools as they are now against the contracts committed for them, tool by tool, with
 * `jtc diff`'s classification: the committed contract is the old version, the server's the new
 * one. So an input that accepts less breaks us as callers (JTC401), an output that accepts more
 * breaks us as consumers (JTC402), a tool gone breaks its callers (JTC400), a new tool breaks
 * nobody (JTC411).
 */

export type DriftStatus = 'unchanged' | 'drifted' | 'missing' | 'new' | 'unreadable' | 'duplicate';

export interface ToolDrift {
  /** The contract's tool name (the committed one where there is one). */
  readonly name: string;
  /**
   * unchanged; drifted (changes below); missing (committed, not on the server under a name the
   * typed client calls); new (on the server, not committed); unreadable (committed, but the
   * server's tool is one the import refuses, so it cannot be compared); duplicate (the server lists
   * the name more than once: which one a client reaches is the server's accident).
   */
  readonly status: DriftStatus;
  /** Whether it breaks the committed contract: a breaking change, a missing, unreadable or duplicate tool. */
  readonly breaking: boolean;
  /** `jtc diff`'s findings, placed in the committed contract (a new tool's, where `jtc import -o` would write it). */
  readonly changes: readonly Diagnostic[];
  /** What stopped the import of the server's tool (unreadable, or new and refused). */
  readonly findings: readonly Finding[];
  /** What was not compared, and changes that validate nothing (the description). */
  readonly notes: readonly string[];
}

export type DriftReport = { readonly ok: true; readonly tools: readonly ToolDrift[] } | { readonly ok: false; readonly problems: readonly Diagnostic[] };

export interface DriftOptions {
  /** The folder of the committed contracts, as the user named it: where a new tool would be written. */
  readonly dir: string;
}

/**
 * `committed`: the contract files; `tools` and `results`: the server's tools and what `importTools`
 * made of each (same order). A committed contract is matched the way the typed client
 * (`mcpToolClient`) finds its tool: the tool the server lists under the contract's name, or under
 * its portable name (dots as `_`). The import's mapping of names outside the rules (`a b` to `a_b`)
 * does not count: the client cannot call through it, so a tool reachable only that way is missing.
 * A set of committed contracts with errors is not compared: its problems are the report.
 */
export function driftOf(committed: readonly SourceText[], tools: readonly SourceTool[], results: readonly ToolResult[], options: DriftOptions): DriftReport {
  const ours = checkContracts(committed);
  const problems = ours.diagnostics.filter((d) => d.severity === 'error');
  if (problems.length > 0) return { ok: false, problems };
  const texts = new Map(committed.map((source) => [source.file, typeof source.text === 'string' ? source.text : new TextDecoder().decode(source.text)]));

  const fileOf = (result: ToolResult): string => `${options.dir}/${result.file!}`;
  const server = checkContracts(results.flatMap((result) => (result.status === 'imported' ? [{ file: fileOf(result), text: result.text! }] : [])));
  const serverByFile = new Map(server.contracts.map((contract) => [contract.file, contract]));
  // The server's tools by the name it lists them under (several, for a server that repeats one).
  const listed = new Map<string, number[]>();
  results.forEach((result, index) => {
    if (result.sourceName !== undefined) listed.set(result.sourceName, [...(listed.get(result.sourceName) ?? []), index]);
  });
  const byContractName = new Map(results.flatMap((result, index) => (result.status === 'imported' ? [[result.name!, index] as const] : [])));
  const reachable = (name: string): { readonly listedAs: string; readonly indexes: readonly number[] } | undefined => {
    for (const listedAs of [name, portableName(name)]) {
      const indexes = listed.get(listedAs);
      if (indexes !== undefined) return { listedAs, indexes };
    }
    return undefined;
  };
  const matched = new Set<number>();
  const duplicate = (name: string, listedAs: string, indexes: readonly number[]): ToolDrift => ({
    name,
    status: 'duplicate',
    breaking: true,
    changes: [],
    findings: [],
    notes: [`the server lists ${JSON.stringify(listedAs)} ${indexes.length} times (tools ${indexes.map((index) => index + 1).join(', ')}); which one a call reaches is up to the server, so it cannot be compared`],
  });

  const drifts = ours.contracts.map((contract): ToolDrift => {
    const base = { name: contract.name, findings: [], notes: [] };
    const found = reachable(contract.name);
    if (found === undefined) {
      const notes: string[] = [];
      const mapped = byContractName.get(contract.name);
      if (mapped !== undefined) {
        matched.add(mapped);
        notes.push(`the server lists ${JSON.stringify(results[mapped]!.sourceName)}, which jtc import writes as ${JSON.stringify(contract.name)}; the typed client calls a tool by its contract name (or its portable name), so it cannot reach that one`);
      }
      return { ...base, status: 'missing', breaking: true, changes: diffContracts([contract], [], false).map(forCallers), notes };
    }
    for (const index of found.indexes) matched.add(index);
    if (found.indexes.length > 1) return duplicate(contract.name, found.listedAs, found.indexes);
    const result = results[found.indexes[0]!]!;
    if (result.status === 'refused') return { ...base, status: 'unreadable', breaking: true, changes: [], findings: result.findings };
    const now = serverByFile.get(fileOf(result))!;
    const notes: string[] = [];
    let changes = diffContracts([contract], [{ ...now, name: contract.name }], false);
    if (tools[found.indexes[0]!]!.output === undefined && changes.some(isOutputChange)) {
      changes = changes.filter((change) => !isOutputChange(change));
      notes.push('the server lists no output schema for it: the committed output is not compared (a typed client checks every result against it)');
    }
    if (now.description !== contract.description) notes.push(`the description changed: ${JSON.stringify(now.description)}`);
    const recorded = contract.output.annotations.description;
    if (recorded?.startsWith(uncheckedOutputMark) === true && now.output.annotations.description !== recorded)
      notes.push("the server's output schema changed; it is still outside the subset, and the committed output checks nothing of it (--unchecked-output): import the tool again (jtc import -o --unchecked-output) to record the new schema");
    const placed = changes.map((change) => forCallers(placeIn(change, contract, texts.get(contract.file)!))).sort(compareDiagnostics);
    return { ...base, status: placed.length === 0 ? 'unchanged' : 'drifted', breaking: hasErrors(placed), changes: placed, notes };
  });

  const fresh = [...listed].flatMap(([listedAs, indexes]): ToolDrift[] => {
    if (indexes.every((index) => matched.has(index))) return [];
    const result = results[indexes[0]!]!;
    const name = result.name ?? listedAs;
    if (indexes.length > 1) return [duplicate(name, listedAs, indexes)];
    const unreachable = result.name !== undefined && result.name !== listedAs ? [`the server lists it as ${JSON.stringify(listedAs)}; a contract imported for it is named ${JSON.stringify(result.name)}, which the typed client cannot call (rename the tool on the server to keep one name)`] : [];
    if (result.status === 'refused') return [{ name, status: 'new', breaking: false, changes: [], findings: result.findings, notes: ['the import refuses it, so it could not be committed as it is', ...unreachable] }];
    return [{ name, status: 'new', breaking: false, changes: diffContracts([], [serverByFile.get(fileOf(result))!], false), findings: [], notes: unreachable }];
  });
  // A definition without a name is no tool a client can call; the import reports it.
  const nameless = results.flatMap((result, index): ToolDrift[] => (result.sourceName === undefined ? [{ name: `tool ${index + 1}`, status: 'new', breaking: false, changes: [], findings: result.findings, notes: ['the import refuses it, so it could not be committed as it is'] }] : []));
  return { ok: true, tools: [...drifts, ...fresh, ...nameless].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

/**
 * The committed contracts whose output `jtc import --unchecked-output` wrote (its description
 * starts with the mark), by name and portable name as their tools may be listed: the server's
 * tool is imported the same way to be compared, flag or not. A file that is not a readable
 * contract counts for none (`driftOf` reports its problems).
 */
export function uncheckedOutputTools(committed: readonly SourceText[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const source of committed) {
    let contract: unknown;
    try {
      contract = JSON.parse(typeof source.text === 'string' ? source.text : new TextDecoder().decode(source.text));
    } catch {
      continue;
    }
    if (!isUncheckedOutput(contract)) continue;
    names.add(contract.name);
    names.add(portableName(contract.name));
  }
  return names;
}

function isUncheckedOutput(contract: unknown): contract is { readonly name: string } {
  if (typeof contract !== 'object' || contract === null) return false;
  const { name, output } = contract as { name?: unknown; output?: unknown };
  const description = typeof output === 'object' && output !== null ? (output as { description?: unknown }).description : undefined;
  return typeof name === 'string' && typeof description === 'string' && description.startsWith(uncheckedOutputMark);
}

/**
 * jtc diff's hints speak to a tool's author; here the committed contract is ours as a caller, and
 * what to do is to take the server's tool in again.
 */
const callerHints: Partial<Record<Diagnostic['code'], string>> = {
  JTC400: 'breaking for us as callers: the server no longer lists it; stop calling it, or find where it went',
  JTC401: 'breaking for us as callers: import the tool again (jtc import -o) and adapt the calls it now denies',
  JTC402: 'breaking for us as consumers: import the tool again (jtc import -o) and handle the values it may now return',
};

function forCallers(change: Diagnostic): Diagnostic {
  const hint = callerHints[change.code];
  return hint === undefined ? change : { ...change, hint };
}

const isOutputChange = (change: Diagnostic): boolean => change.pointer === '/output' || change.pointer.startsWith('/output/');

/** A change found in the server's version, placed where its pointer (or the nearest enclosing value) stands in the committed file. */
function placeIn(change: Diagnostic, contract: ContractIR, text: string): Diagnostic {
  const { line, column } = positionIn(text, change.pointer);
  return { ...change, file: contract.file, line, column };
}
