import { UsageError } from '../diagnostics/usage-error.js';
import { findMember, type JsonNode } from '../source/json-node.js';
import { version } from '../version.js';
import { httpTransport } from './http-transport.js';
import { RefusedRequest, type Transport, type TransportOptions } from './json-rpc.js';
import { parseToolList } from './sources.js';
import { stdioTransport } from './stdio-transport.js';

/**
 * A small, strict MCP client for the requests `jtc import` needs: `initialize` (then
 * `notifications/initialized`), or `server/discover` for a stateless 2026-07-28 server, and
 * `tools/list` with its pages, over stdio or Streamable HTTP.
 * Every wait has a timeout, every read a bound, and every failure becomes a UsageError that says
 * what the server did.
 */
export type McpClientOptions = TransportOptions;

/** The protocol version asked for; a server may answer with another it supports. */
const protocolVersion = '2025-11-25';
/** A server that pages further than this is not ending its list. */
const maxPages = 1000;

/** The stateless revision: no `initialize`, `server/discover`, and every request names the revision in `_meta`. */
const statelessRevision = '2026-07-28';
const clientInfo = { name: 'jtc', version };

/**
 * Every tool the server lists, each page's tools in order: the definitions as the server wrote them.
 * It begins as a 2025-11-25 client does (`initialize`), so a server of that revision, or one that
 * serves both (SDK v2), sees exactly the exchange it always did. A server that refuses `initialize`
 * (an error answer, an HTTP 4xx) is asked `server/discover`; if it speaks 2026-07-28, it is listed
 * statelessly, each request carrying the revision, our capabilities and identity in `_meta`.
 */
async function listTools(transport: Transport): Promise<JsonNode[]> {
  try {
    const meta = (await begin(transport)) ? { _meta: { 'io.modelcontextprotocol/protocolVersion': statelessRevision, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': clientInfo } } : undefined;
    const revision = meta === undefined ? undefined : statelessRevision;
    const tools: JsonNode[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = resultOf(await transport.request('tools/list', { ...(cursor === undefined ? {} : { cursor }), ...meta }, revision), 'tools/list', transport.label);
      const list = findMember(result, 'tools')?.value;
      if (list?.kind !== 'array') throw new UsageError(`${transport.label}: the answer to tools/list has no "tools" array`);
      tools.push(...list.items);
      const next = findMember(result, 'nextCursor')?.value;
      if (next === undefined || next.kind === 'null') return tools;
      if (next.kind !== 'string' || cursors.has(next.value)) throw new UsageError(`${transport.label}: tools/list gave ${next.kind === 'string' ? 'a cursor it gave before' : 'a cursor that is not a string'}; the list does not end`);
      cursors.add(next.value);
      cursor = next.value;
    }
    throw new UsageError(`${transport.label}: tools/list gave more than ${maxPages} pages`);
  } finally {
    await transport.close();
  }
}

/** Opens the conversation: `initialize` (then false), or, when the server refuses it, `server/discover` at 2026-07-28 (then true: stateless). */
async function begin(transport: Transport): Promise<boolean> {
  let refused: RefusedRequest;
  try {
    const init = resultOf(await transport.request('initialize', { protocolVersion, capabilities: {}, clientInfo }), 'initialize', transport.label);
    if (findMember(init, 'protocolVersion')?.value.kind !== 'string') throw new UsageError(`${transport.label}: the answer to initialize names no protocolVersion`);
    await transport.notify('notifications/initialized');
    return false;
  } catch (error) {
    if (!(error instanceof RefusedRequest)) throw error;
    refused = error;
  }
  const meta = { 'io.modelcontextprotocol/protocolVersion': statelessRevision, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': clientInfo };
  let discovered: JsonNode & { kind: 'object' };
  try {
    discovered = resultOf(await transport.request('server/discover', { _meta: meta }, statelessRevision), 'server/discover', transport.label);
  } catch (error) {
    if (!(error instanceof RefusedRequest)) throw error;
    throw new UsageError(`${refused.message}; and server/discover (MCP ${statelessRevision}) failed too: ${error.message.slice(transport.label.length + 2)}`);
  }
  const versions = findMember(discovered, 'supportedVersions')?.value;
  const listed = versions?.kind === 'array' ? versions.items.flatMap((item) => (item.kind === 'string' ? [item.value] : [])) : [];
  if (!listed.includes(statelessRevision)) throw new UsageError(`${refused.message}; and server/discover lists ${listed.length === 0 ? 'no supportedVersions' : `only ${listed.join(', ')}`}, not ${statelessRevision}, the revision jtc import speaks without initialize`);
  return true;
}

/** The `result` of a JSON-RPC response, parsed exactly (numbers keep their digits); an error response is the server's message. */
function resultOf(text: string, method: string, label: string): JsonNode & { kind: 'object' } {
  const root = parseToolList(text, `${label}: the answer to ${method}`);
  const error = root.kind === 'object' ? findMember(root, 'error')?.value : undefined;
  if (error !== undefined) {
    const message = error.kind === 'object' ? findMember(error, 'message')?.value : undefined;
    throw new RefusedRequest(`${label}: ${method} failed: ${message?.kind === 'string' ? message.value : 'the server answered with an error'}`);
  }
  const result = root.kind === 'object' ? findMember(root, 'result')?.value : undefined;
  if (result?.kind !== 'object') throw new UsageError(`${label}: the answer to ${method} has no "result" object`);
  return result;
}

/** Lists the tools of a server started with `command` (through the shell) that speaks MCP on its stdin and stdout; it is stopped afterwards. */
export function listToolsOverStdio(command: string, options: McpClientOptions): Promise<JsonNode[]> {
  return listTools(stdioTransport(command, options));
}

/** Lists the tools of a Streamable HTTP endpoint. */
export function listToolsOverHttp(url: string, options: McpClientOptions): Promise<JsonNode[]> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url: not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url: takes an http or https URL, not ${parsed.protocol}`);
  return listTools(httpTransport(parsed, options));
}
