import { describeThrown } from '../support/describe-thrown.js';
import type { McpLoggingLevel, McpProtocolVersion } from './protocol.js';

/**
 * What MCP 2026-07-28 changes for a server, in one place (docs/mcp-revisions.md). Against
 * 2025-11-25 it has no `initialize` and no sessions: every request names the client's revision,
 * capabilities and identity in reserved `_meta` keys, `server/discover` says what the server
 * offers, cacheable results carry `ttlMs`/`cacheScope`, results say `resultType`, log messages
 * reach a client only when the request names a level, and errors of the revision have codes of
 * their own. `mcpToolHandlers` and `mcpHttpHandler` read the revision of each request from here.
 */

export const modernRevision = '2026-07-28';

/** The revisions a 2025-era client may name in `initialize`, newest first. */
export const legacyRevisions: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** The reserved `_meta` keys of a 2026-07-28 request (and of its results: `serverInfo`). */
export const metaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** JSON-RPC error codes: JSON-RPC's own and those 2026-07-28 adds (the range -32020 to -32099 is MCP's). */
export const mcpErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** 2025-11-25 Streamable HTTP: a session the server does not know (answered with HTTP 404). */
  sessionNotFound: -32001,
  /** The `MCP-Protocol-Version`, `Mcp-Method` or `Mcp-Name` header is missing or disagrees with the body. */
  headerMismatch: -32020,
  /** Answering needs a capability the request's `clientCapabilities` does not declare. */
  missingRequiredClientCapability: -32021,
  /** The request names a revision the server does not serve; `data` lists the ones it does. */
  unsupportedProtocolVersion: -32022,
} as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A dated revision (`YYYY-MM-DD`) at or after 2026-07-28: served by that revision's rules, the newest we implement. */
export function isModernRevision(named: unknown): named is string {
  return typeof named === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(named) && named >= modernRevision;
}

/**
 * The revision a request names: 2026-07-28 and later requests carry it in their `_meta` envelope,
 * which SDK v2 lifts out into `ctx.mcpReq.envelope`. Anything else is 2025-11-25.
 */
export function requestRevision(params: unknown, extra: unknown): McpProtocolVersion {
  const namedIn = (envelope: unknown): unknown => (isObject(envelope) ? envelope[metaKeys.protocolVersion] : undefined);
  let named: unknown;
  try {
    const lifted = namedIn(isObject(extra) && isObject(extra['mcpReq']) ? extra['mcpReq']['envelope'] : undefined);
    named = typeof lifted === 'string' ? lifted : namedIn(isObject(params) ? params['_meta'] : undefined);
  } catch {
    // Parameters that throw when read (a hostile proxy) name no revision.
  }
  return isModernRevision(named) ? '2026-07-28' : '2025-11-25';
}

/** The syslog levels of MCP logging, least severe first. */
const loggingLevels: readonly McpLoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function isLoggingLevel(value: unknown): value is McpLoggingLevel {
  return loggingLevels.includes(value as McpLoggingLevel);
}

/** Whether a message of `level` passes a client's minimum level. */
export function isLevelShown(level: McpLoggingLevel, minimum: McpLoggingLevel): boolean {
  return loggingLevels.indexOf(level) >= loggingLevels.indexOf(minimum);
}

/**
 * Where a 2026-07-28 log message goes. The revision deprecates MCP logging (SEP-2577): a server
 * MUST NOT send `notifications/message` for a request without `io.modelcontextprotocol/logLevel`
 * in its `_meta`, and servers log to stderr (or OpenTelemetry) instead. So: `client` when the
 * request names a level the message reaches, `dropped` when it names a higher one (the client chose
 * not to hear it), `elsewhere` when it names none.
 */
export function modernLogRoute(meta: unknown, level: McpLoggingLevel): 'client' | 'dropped' | 'elsewhere' {
  let minimum: unknown;
  try {
    minimum = isObject(meta) ? meta[metaKeys.logLevel] : undefined;
  } catch {
    // An envelope that throws when read names no level.
  }
  if (!isLoggingLevel(minimum)) return 'elsewhere';
  return isLevelShown(level, minimum) ? 'client' : 'dropped';
}

/** A log message no MCP client is to hear. */
export type McpUnsentLog = (level: McpLoggingLevel, data: unknown, logger: string | undefined) => void;

/** The default for a message without a client: one JSON line on stderr (console.error where there is no process, as on Workers). */
export const logToStderr: McpUnsentLog = (level, data, logger) => {
  let line: string;
  try {
    line = JSON.stringify({ mcpLog: level, ...(logger === undefined ? {} : { logger }), data });
  } catch {
    line = JSON.stringify({ mcpLog: level, ...(logger === undefined ? {} : { logger }), data: describeThrown(data) });
  }
  const stderr = (globalThis as { process?: { stderr?: { write?: (text: string) => unknown } } }).process?.stderr;
  if (typeof stderr?.write === 'function') stderr.write(`${line}\n`);
  else console.error(line);
};

/** Hands a message to the server's `unsentLog` (stderr by default); a logger that throws loses the message, never the handler's call. */
export function sendUnsent(unsentLog: McpUnsentLog | undefined, level: McpLoggingLevel, data: unknown, logger: string | undefined): void {
  try {
    (unsentLog ?? logToStderr)(level, data, logger);
  } catch {
    // mcpLog is the handler's side channel: its failure is not the call's.
  }
}

/** The cache hint of a cacheable 2026-07-28 result: `ttlMs` (whole milliseconds, default 0) and `cacheScope` (default `private`). */
export interface McpCacheHint {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public' | 'private';
}

/** A cache hint checked at once: invalid values are a RangeError, never a result a client misreads. */
export function cacheHint(hint: McpCacheHint = {}, option = 'toolsListCache'): { ttlMs: number; cacheScope: 'public' | 'private' } {
  const { ttlMs = 0, cacheScope = 'private' } = hint;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) throw new RangeError(`${option}.ttlMs must be a whole number of milliseconds of at least 0, got ${String(ttlMs)}`);
  if (cacheScope !== 'public' && cacheScope !== 'private') throw new RangeError(`${option}.cacheScope must be "public" or "private", got ${String(cacheScope)}`);
  return { ttlMs, cacheScope };
}
