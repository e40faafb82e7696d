import { UsageError } from '../diagnostics/usage-error.js';
import { findMember, type JsonNode } from '../source/json-node.js';
import { version } from '../version.js';
import { httpTransport } from './http-transport.js';
import type { Transport, TransportOptions } from './json-rpc.js';
import { parseToolList } from './sources.js';
import { stdioTransport } from './stdio-transport.js';

/**
 * A small, strict MCP client for the two requests `jtc import` needs: `initialize` (then
 * `notifications/initialized`) and `tools/list` with its pages, over stdio or Streamable HTTP.
 * Every wait has a timeout, every read a bound, and every failure becomes a UsageError that says
 * what the server did.
 */
export type McpClientOptions = TransportOptions;

/** The protocol version asked for; a server may answer with another it supports. */
const protocolVersion = '2025-11-25';
/** A server that pages further than this is not ending its list. */
const maxPages = 1000;

/** Every tool the server lists, each page's tools in order: the definitions as the server wrote them. */
async function listTools(transport: Transport): Promise<JsonNode[]> {
  try {
    const init = resultOf(await transport.request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'jtc', version } }), 'initialize', transport.label);
    if (findMember(init, 'protocolVersion')?.value.kind !== 'string') throw new UsageError(`${transport.label}: the answer to initialize names no protocolVersion`);
    await transport.notify('notifications/initialized');
    const tools: JsonNode[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const result = resultOf(await transport.request('tools/list', cursor === undefined ? {} : { cursor }), 'tools/list', transport.label);
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

/** The `result` of a JSON-RPC response, parsed exactly (numbers keep their digits); an error response is the server's message. */
function resultOf(text: string, method: string, label: string): JsonNode & { kind: 'object' } {
  const root = parseToolList(text, `${label}: the answer to ${method}`);
  const error = root.kind === 'object' ? findMember(root, 'error')?.value : undefined;
  if (error !== undefined) {
    const message = error.kind === 'object' ? findMember(error, 'message')?.value : undefined;
    throw new UsageError(`${label}: ${method} failed: ${message?.kind === 'string' ? message.value : 'the server answered with an error'}`);
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
