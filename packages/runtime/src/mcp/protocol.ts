/**
 * The MCP vocabulary the server, its 2026-07-28 rules (revision-2026.ts) and the client all speak:
 * the revisions a result can follow, the logging levels, and the `_meta` key that marks the
 * runtime's own error results. Its own module so those three import it and not each other.
 */

/** The MCP revision whose rules the results follow. */
export type McpProtocolVersion = '2025-11-25' | '2026-07-28';

export type McpLoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * Where an MCP error result of the runtime says it is one: `_meta[toolErrorMetaKey]` is
 * `{ code }`, the code its text starts with. The typed client trusts a `code: message` text only
 * with this mark beside it; any other server's `denied: …` is that server's own text.
 */
export const toolErrorMetaKey = 'json-tool-contracts/error';
