import type { ToolDriftVerdict, UpstreamTool } from '@json-tool-contracts/runtime/mcp/proxy';
import type { SourceText } from '../contract/check-contracts.js';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import { driftOf, uncheckedOutputTools, type ToolDrift } from '../import/drift.js';
import { importTools } from '../import/import-tools.js';
import { parseToolList, readTools } from '../import/sources.js';

/**
 * The gateway's drift check: the upstream's listing against the contracts, exactly as
 * `jtc import --check <dir>` compares a live server with its committed contracts (src/import/drift),
 * tool by tool: a contract committed with `jtc import --unchecked-output` is compared as that flag
 * writes it, as `--check` does.
 */
export function upstreamDrift(sources: readonly SourceText[], dir: string): (listed: readonly UpstreamTool[]) => ToolDrift[] {
  const unchecked = uncheckedOutputTools(sources);
  return (listed) => {
    const { tools } = readTools(parseToolList(JSON.stringify({ tools: listed }), 'the upstream'), 'upstream', 'mcp');
    const report = driftOf(sources, tools, importTools(tools, { outDir: dir, uncheckedOutputFor: unchecked }), { dir });
    // The contracts compiled before this runs: a report of their problems cannot come.
    return report.ok ? [...report.tools] : [];
  };
}

/** A drift as the gateway's policy reads it: breaking or not, and what to say. */
export function verdictOf(drift: ToolDrift): ToolDriftVerdict {
  const said = [...drift.changes.map(formatDiagnostic), ...drift.findings.map((finding) => `${finding.kind}: ${finding.message}`), ...drift.notes];
  return { name: drift.name, breaking: drift.breaking, message: said.length === 0 ? drift.status : `${drift.status}: ${said.join('; ')}` };
}
