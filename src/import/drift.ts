import { portableName } from '@json-tool-contracts/runtime/internal';
import { checkContracts, type SourceText } from '../contract/check-contracts.js';
import { compareDiagnostics, hasErrors, type Diagnostic } from '../diagnostics/diagnostic.js';
import { diffContracts } from '../diff/diff-contracts.js';
import type { ContractIR } from '../ir/contract-ir.js';
import { positionIn, type Finding, type ToolResult } from './import-tools.js';
import type { SourceTool } from './sources.js';

/**
 * A server's tools as they are now against the contracts committed for them, tool by tool, with
 * `jtc diff`'s classification: the committed contract is the old version, the server's the new
 * one. So an input that accepts less breaks us as callers (JTC401), an output that accepts more
 * breaks us as consumers (JTC402), a tool gone breaks its callers (JTC400), a new tool breaks
 * nobody (JTC411).
 */

export type DriftStatus = 'unchanged' | 'drifted' | 'missing' | 'new' | 'unreadable';

export interface ToolDrift {
  /** The contract's tool name (the committed one where there is one). */
  readonly name: string;
  /**
   * unchanged; drifted (changes below); missing (committed, not on the server); new (on the
   * server, not committed); unreadable (committed, but the server's tool is one the import
   * refuses, so it cannot be compared).
   */
  readonly status: DriftStatus;
  /** Whether it breaks the committed contract: a breaking change, a missing tool, an unreadable one. */
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
 * made of each (same order). A committed contract is matched with the server's tool of its name,
 * or of its portable name (dots as `_`) as the typed client calls it. A set of committed contracts
 * with errors is not compared: its problems are the report.
 */
export function driftOf(committed: readonly SourceText[], tools: readonly SourceTool[], results: readonly ToolResult[], options: DriftOptions): DriftReport {
  const ours = checkContracts(committed);
  const problems = ours.diagnostics.filter((d) => d.severity === 'error');
  if (problems.length > 0) return { ok: false, problems };
  const texts = new Map(committed.map((source) => [source.file, typeof source.text === 'string' ? source.text : new TextDecoder().decode(source.text)]));

  const imported = results.flatMap((result, index) => (result.status === 'imported' ? [{ result, tool: tools[index]!, file: `${options.dir}/${result.file!}` }] : []));
  const server = checkContracts(imported.map(({ result, file }) => ({ file, text: result.text! })));
  const serverByName = new Map(server.contracts.map((contract) => [contract.name, contract]));
  const withoutOutputSchema = new Set(imported.filter(({ tool }) => tool.output === undefined).map(({ file }) => file));
  // A tool whose name has no contract form is still reported, under the name its source gives.
  const refused = new Map(results.flatMap((result, index) => (result.status === 'refused' ? [[result.name ?? result.sourceName ?? `tool ${index + 1}`, result] as const] : [])));
  const matched = new Set<string>();
  const matchIn = <T>(names: ReadonlyMap<string, T>, name: string): [string, T] | undefined => {
    for (const candidate of [name, portableName(name)]) {
      const found = names.get(candidate);
      if (found !== undefined) return [candidate, found];
    }
    return undefined;
  };

  const drifts = ours.contracts.map((contract): ToolDrift => {
    const base = { name: contract.name, findings: [], notes: [] };
    const theirs = matchIn(serverByName, contract.name);
    if (theirs === undefined) {
      const unreadable = matchIn(refused, contract.name);
      if (unreadable === undefined) return { ...base, status: 'missing', breaking: true, changes: diffContracts([contract], [], false).map(forCallers) };
      matched.add(unreadable[0]);
      return { ...base, status: 'unreadable', breaking: true, changes: [], findings: unreadable[1].findings };
    }
    matched.add(theirs[0]);
    const now = theirs[1];
    const notes: string[] = [];
    let changes = diffContracts([contract], [{ ...now, name: contract.name }], false);
    if (withoutOutputSchema.has(now.file) && changes.some(isOutputChange)) {
      changes = changes.filter((change) => !isOutputChange(change));
      notes.push('the server lists no output schema for it: the committed output is not compared (a typed client checks every result against it)');
    }
    if (now.description !== contract.description) notes.push(`the description changed: ${JSON.stringify(now.description)}`);
    const placed = changes.map((change) => forCallers(placeIn(change, contract, texts.get(contract.file)!))).sort(compareDiagnostics);
    return { ...base, status: placed.length === 0 ? 'unchanged' : 'drifted', breaking: hasErrors(placed), changes: placed, notes };
  });

  const fresh = [
    ...server.contracts.filter((contract) => !matched.has(contract.name)).map((contract): ToolDrift => ({ name: contract.name, status: 'new', breaking: false, changes: diffContracts([], [contract], false), findings: [], notes: [] })),
    ...[...refused].filter(([name]) => !matched.has(name)).map(([name, result]): ToolDrift => ({ name, status: 'new', breaking: false, changes: [], findings: result.findings, notes: ['the import refuses it, so it could not be committed as it is'] })),
  ];
  return { ok: true, tools: [...drifts, ...fresh].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
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
