import type { CapabilityRuntime, ToolRequest } from '../../core/capability-runtime.js';
import { copyContent, withContent, type ContentBlock } from '../../core/content.js';
import type { ToolContract } from '../../core/contract.js';
import { defaultEnvelopeLimits } from '../../core/envelope.js';
import { ToolError } from '../../core/errors.js';
import type { ContractSet } from '../../core/handler-map.js';
import { ToolMetadata, ToolPolicy } from '../../core/policy.js';
import { describeThrown } from '../../support/describe-thrown.js';
import { isPlainObject } from '../../support/is-plain-object.js';
import { portableName } from '../../targets/tool-names.js';
import { mcpCreateMessage, mcpElicit, mcpProgress, type McpCreateMessageParams } from '../server.js';
import { requestedSchemaValidator } from '../client/client-input.js';

/**
 * A contract gateway: the tools of an upstream MCP server served through a runtime, each held to
 * its contract. The runtime checks every call's input before the handler forwards it and the
 * output the upstream gives back before it is returned (a breaking output is the runtime's
 * `invalid_output`, never passed on); its budgets, records, observer and store apply as to any tool.
 * The upstream is an MCP SDK v2 `Client` (`@modelcontextprotocol/client`), connected, at either
 * revision: this module imports nothing of the SDK.
 *
 *   const proxy = await proxyTools(runtime, client, contracts, { drift: compareWithContracts });
 *   const http = mcpHttpHandler(runtime, { serverInfo });     // or mcpStdioServer(http)
 */

/** A tool as the upstream lists it. */
export interface UpstreamTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly [key: string]: unknown;
}

type RequestHandler = (request: { readonly method: string; readonly params?: Record<string, unknown> }) => unknown;

/** What the gateway uses of an MCP SDK v2 `Client`; declare `capabilities: { elicitation: { form: {}, url: {} }, sampling: {} }` on it to pass input rounds through. */
export interface ProxyUpstream {
  listTools(params?: { cursor: string }): Promise<{ readonly tools: readonly UpstreamTool[]; readonly nextCursor?: string | undefined }>;
  request(request: { method: 'tools/call'; params: Record<string, unknown> }, options?: never): Promise<unknown>;
  setRequestHandler?(method: 'elicitation/create' | 'sampling/createMessage', handler: RequestHandler): void;
  setNotificationHandler?(method: 'notifications/tools/list_changed', handler: () => void): void;
}

/** What the drift comparison says of one tool (`jtc import --check`'s classification). */
export interface ToolDriftVerdict {
  readonly name: string;
  /** Whether the upstream's listing breaks the contract (a breaking change, a missing, unreadable or duplicate tool). */
  readonly breaking: boolean;
  /** What changed, for the report. */
  readonly message: string;
}

/** How the gateway treats a tool whose upstream listing broke its contract: refused (the default) or served, with a warning. */
export type DriftPolicy = 'refuse' | 'warn';
/** How the gateway treats a tool the upstream lists without a contract: refused (the default, not served), or served with its input and output unchecked. */
export type UncontractedPolicy = 'refuse' | 'pass';

/** One output of a tool whose contract accepts any output, for `onSample` (learning an output contract). */
export interface OutputSample {
  readonly tool: string;
  /** The arguments as forwarded (checked by the contract). */
  readonly arguments: Record<string, unknown>;
  /** The JSON the result carried (`structuredContent`, or a first text block that is a JSON object or array), when it carried one. */
  readonly output?: unknown;
  readonly content: readonly ContentBlock[];
}

export interface ProxyToolsOptions {
  /**
   * Compares the upstream's listing with the contracts, as `jtc import --check` does (the CLI
   * passes that comparison; a server embedding the gateway passes its own, or none: then only
   * tools missing upstream count). Called at start and on every `notifications/tools/list_changed`.
   */
  readonly drift?: (listed: readonly UpstreamTool[]) => readonly ToolDriftVerdict[];
  /** Default `refuse`. */
  readonly onDrift?: DriftPolicy;
  /** Default `refuse`. */
  readonly uncontracted?: UncontractedPolicy;
  /** Call budgets by contract name. */
  readonly budgets?: Readonly<Record<string, number>>;
  /** How long one forwarded request may take, in milliseconds (default 60,000). */
  readonly timeoutMs?: number;
  /** Hears every listing's report: at start and after each `tools/list_changed`. What it throws is ignored. */
  readonly onReport?: (report: ProxyReport) => void;
  /** Hears why a listing after a `tools/list_changed` failed: the last report's policies stay. What it throws is ignored. */
  readonly onRefreshFailed?: (error: unknown) => void;
  /** Hears each output of a tool whose contract accepts any output. What it throws is ignored. */
  readonly onSample?: (sample: OutputSample) => void;
}

export type ProxiedStatus = 'served' | 'drifted' | 'refused' | 'missing' | 'unchecked' | 'uncontracted';

/** One tool of a listing's report. */
export interface ProxiedTool {
  readonly name: string;
  /**
   * served; drifted (served with a warning: the upstream broke its contract, policy `warn`);
   * refused (the upstream broke its contract: calls are denied); missing (a contract the upstream
   * lists no tool for: calls are denied); unchecked (listed upstream without a contract, served
   * unchecked: policy `pass`); uncontracted (listed upstream without a contract: not served).
   */
  readonly status: ProxiedStatus;
  readonly message?: string;
}

export interface ProxyReport {
  readonly tools: readonly ProxiedTool[];
}

export interface McpProxy {
  /** The report of the latest listing. */
  readonly report: ProxyReport;
  /** Lists the upstream again and applies the policies (what a `tools/list_changed` does). */
  refresh(): Promise<ProxyReport>;
}

const defaultTimeoutMs = 60_000;
const maxPages = 1_000;

type AnyContract = ToolContract<unknown, unknown>;
interface Route {
  /** The name the upstream lists the tool under. */
  upstreamName: string | undefined;
  /** Why calls are denied; undefined when they are forwarded. */
  refusal: string | undefined;
}

/**
 * Registers a handler on `runtime` for every contract of `contracts` (and, with `uncontracted:
 * 'pass'`, for every tool the upstream lists without one) that forwards the call to `upstream`.
 * Lists the upstream first: rejects when it cannot be listed.
 */
export async function proxyTools(runtime: CapabilityRuntime, upstream: ProxyUpstream, contracts: ContractSet, options: ProxyToolsOptions = {}): Promise<McpProxy> {
  const { onDrift = 'refuse', uncontracted = 'refuse', budgets = {}, timeoutMs = defaultTimeoutMs } = options;
  if (onDrift !== 'refuse' && onDrift !== 'warn') throw new RangeError(`onDrift takes "refuse" or "warn", not ${describeThrown(onDrift)}`);
  if (uncontracted !== 'refuse' && uncontracted !== 'pass') throw new RangeError(`uncontracted takes "refuse" or "pass", not ${describeThrown(uncontracted)}`);
  const byName = new Map<string, AnyContract>();
  for (const contract of Object.values(contracts as Record<string, AnyContract>)) byName.set(contract.name, contract);
  for (const name of Object.keys(budgets)) if (!byName.has(name)) throw new RangeError(`budgets names "${name}", which no contract of the set is for`);
  const routes = new Map<string, Route>();
  /** The calls forwarded now, for the upstream's requests of 2025-11-25, which name no call. */
  const inFlight = new Set<Forwarded>();

  const forward = (contract: AnyContract, route: Route) => async (request: ToolRequest<unknown>) => {
    if (route.refusal !== undefined || route.upstreamName === undefined) throw new ToolError('denied', route.refusal ?? `the upstream lists no tool "${contract.name}"`);
    const call = new Forwarded(request);
    inFlight.add(call);
    try {
      const result = await callUpstream(upstream, route.upstreamName, request, call, timeoutMs);
      return answerOf(contract, request, result, options.onSample);
    } finally {
      inFlight.delete(call);
    }
  };

  for (const contract of byName.values()) {
    const route: Route = { upstreamName: undefined, refusal: undefined };
    routes.set(contract.name, route);
    const budget = budgets[contract.name];
    const policy = budget === undefined ? ToolPolicy.json(contract.name) : ToolPolicy.json(contract.name).withCallBudget(budget);
    runtime.registerValidatedJsonTool(policy, ToolMetadata.of(contract.description), contract, forward(contract, route));
  }

  for (const method of ['elicitation/create', 'sampling/createMessage'] as const) {
    try {
      upstream.setRequestHandler?.(method, (message) => askDownstream(method, message.params ?? {}));
    } catch {
      // The SDK refuses a handler for a capability the Client did not declare: the upstream will not ask it.
    }
  }
  /** A 2025-11-25 upstream's request names no call: it is passed to the one call forwarded now, and refused when there are several. */
  function askDownstream(method: 'elicitation/create' | 'sampling/createMessage', params: Record<string, unknown>): Promise<unknown> {
    if (inFlight.size !== 1) return Promise.reject(new Error(`${method} of the upstream cannot be passed on: ${inFlight.size === 0 ? 'no call is forwarded now' : `${inFlight.size} calls are forwarded now and the request names none of them`}`));
    const [call] = inFlight;
    return call!.ask(method, params, `upstream-${++call!.asked}`);
  }

  let report: ProxyReport = { tools: [] };
  const refresh = async (): Promise<ProxyReport> => {
    const listed = await listAll(upstream);
    report = apply(listed);
    try {
      options.onReport?.(report);
    } catch {
      // The report's listener is the host's: the gateway serves on.
    }
    return report;
  };

  function apply(listed: readonly UpstreamTool[]): ProxyReport {
    const upstreamByName = new Map(listed.map((tool) => [tool.name, tool]));
    const verdicts = new Map((options.drift?.(listed) ?? []).map((verdict) => [verdict.name, verdict]));
    const tools: ProxiedTool[] = [];
    const claimed = new Set<string>();
    for (const [name, route] of routes) {
      if (!byName.has(name)) continue;
      const found = upstreamByName.get(name) ?? upstreamByName.get(portableName(name));
      if (found !== undefined) claimed.add(found.name);
      route.upstreamName = found?.name;
      const verdict = verdicts.get(name);
      if (found === undefined) {
        route.refusal = `the upstream lists no tool "${name}"${name === portableName(name) ? '' : ` (nor "${portableName(name)}")`}`;
        tools.push({ name, status: 'missing', message: route.refusal });
      } else if (verdict?.breaking === true && onDrift === 'refuse') {
        route.refusal = `the upstream's "${found.name}" no longer holds to its contract, and the gateway refuses it: ${verdict.message}`;
        tools.push({ name, status: 'refused', message: verdict.message });
      } else {
        route.refusal = undefined;
        tools.push(verdict?.breaking === true ? { name, status: 'drifted', message: verdict.message } : { name, status: 'served' });
      }
    }
    for (const tool of listed) {
      if (claimed.has(tool.name) || byName.has(tool.name)) continue;
      if (uncontracted === 'refuse') {
        tools.push({ name: tool.name, status: 'uncontracted', message: `the upstream lists "${tool.name}", which has no contract: not served` });
        continue;
      }
      const existing = routes.get(tool.name);
      if (existing === undefined) {
        const contract = uncheckedContract(tool);
        const route: Route = { upstreamName: tool.name, refusal: undefined };
        routes.set(tool.name, route);
        runtime.registerValidatedJsonTool(ToolPolicy.json(tool.name), ToolMetadata.of(contract.description), contract, forward(contract, route));
      } else {
        existing.upstreamName = tool.name;
        existing.refusal = undefined;
      }
      tools.push({ name: tool.name, status: 'unchecked', message: `the upstream lists "${tool.name}", which has no contract: served unchecked` });
    }
    // A tool served unchecked that the upstream no longer lists.
    for (const [name, route] of routes) {
      if (byName.has(name) || upstreamByName.has(name)) continue;
      route.upstreamName = undefined;
      route.refusal = `the upstream no longer lists "${name}"`;
    }
    return { tools };
  }

  await refresh();
  let refreshing: Promise<unknown> = Promise.resolve();
  upstream.setNotificationHandler?.('notifications/tools/list_changed', () => {
    // One listing at a time, in the order the notifications came; a failed one keeps the last report.
    refreshing = refreshing.then(refresh).catch((error: unknown) => {
      try {
        options.onRefreshFailed?.(error);
      } catch {
        // The listener is the host's: the gateway serves on.
      }
    });
  });
  return {
    get report() {
      return report;
    },
    refresh: () => {
      const next = refreshing.then(refresh);
      refreshing = next.catch(() => undefined);
      return next;
    },
  };
}

/** One forwarded call: its request (to ask its client), and how many upstream requests it passed on. */
class Forwarded {
  asked = 0;
  constructor(readonly request: ToolRequest<unknown>) {}

  /** Asks the call's client what the upstream asked, as the runtime asks for any tool (both revisions), and words the answer as the upstream expects it. */
  async ask(method: 'elicitation/create' | 'sampling/createMessage', params: Record<string, unknown>, key: string): Promise<unknown> {
    if (method === 'sampling/createMessage') {
      const answer = await mcpCreateMessage(this.request, { ...(params as unknown as McpCreateMessageParams), key });
      if (answer.status !== 'accepted') throw new Error(answer.status === 'invalid' ? `the client's answer was invalid: ${answer.message}` : "the gateway's client cannot answer sampling/createMessage");
      return answer.value;
    }
    const message = typeof params['message'] === 'string' ? params['message'] : '';
    const answer = params['mode'] === 'url' ? await mcpElicit(this.request, { key, mode: 'url', message, url: String(params['url']) }) : await mcpElicit(this.request, { key, message, requestedSchema: params['requestedSchema'] as Record<string, unknown>, validator: validatorOf(params['requestedSchema']) });
    if (answer.status === 'accepted') return answer.value === undefined ? { action: 'accept' } : { action: 'accept', content: answer.value };
    if (answer.status === 'declined') return { action: 'decline' };
    if (answer.status === 'cancelled') return { action: 'cancel' };
    throw new Error(answer.status === 'invalid' ? `the client's answer was invalid: ${answer.message}` : "the gateway's client cannot answer elicitation/create");
  }
}

function validatorOf(schema: unknown) {
  const validator = requestedSchemaValidator(schema);
  if (typeof validator === 'string') throw new Error(`the upstream's elicitation cannot be passed on: ${validator}`);
  return validator;
}

/**
 * One forwarded `tools/call`, with the call's signal and the upstream's progress passed on; a
 * 2026-07-28 upstream's `input_required` rounds are asked of the call's client and retried.
 */
async function callUpstream(upstream: ProxyUpstream, name: string, request: ToolRequest<unknown>, call: Forwarded, timeoutMs: number): Promise<Record<string, unknown>> {
  // Sent in order, and all of them before the result: the client hears each step before the answer.
  let progressSent: Promise<unknown> = Promise.resolve();
  const onprogress = (progress: { progress: number; total?: number; message?: string }) => {
    const details = { ...(progress.total === undefined ? {} : { total: progress.total }), ...(progress.message === undefined ? {} : { message: progress.message }) };
    progressSent = progressSent.then(() => mcpProgress(request, progress.progress, details)).catch(() => undefined);
  };
  const requestOptions = { signal: request.signal, timeout: timeoutMs, onprogress, allowInputRequired: true } as never;
  let params: Record<string, unknown> = { name, arguments: request.input };
  for (let round = 1; ; round++) {
    let received: unknown;
    try {
      received = await upstream.request({ method: 'tools/call', params }, requestOptions);
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw new ToolError('handler_failed', `the upstream's "${name}" failed: ${describeThrown(error)}`);
    }
    if (!isPlainObject(received)) throw new ToolError('invalid_output', `the upstream answered "${name}" with no tools/call result`);
    await progressSent;
    if (received['resultType'] !== 'input_required') return received;
    if (round > maxInputRounds) throw new ToolError('handler_failed', `the upstream asked for input again after ${maxInputRounds} rounds of "${name}"`);
    const requests = isPlainObject(received['inputRequests']) ? Object.entries(received['inputRequests']) : [];
    if (requests.length === 0) throw new ToolError('handler_failed', `the upstream answered "${name}" input_required with no input requests`);
    const inputResponses: Record<string, unknown> = {};
    for (const [key, entry] of requests) {
      const method = isPlainObject(entry) ? entry['method'] : undefined;
      if (method !== 'elicitation/create' && method !== 'sampling/createMessage') throw new ToolError('handler_failed', `the upstream's input request "${key}" for "${name}" is ${describeThrown(method)}, which the gateway does not pass on`);
      const entryParams = isPlainObject(entry) && isPlainObject(entry['params']) ? entry['params'] : {};
      try {
        inputResponses[key] = await call.ask(method, entryParams, key);
      } catch (error) {
        // The runtime's own end of a round (a 2026-07-28 client is asked through input_required) goes through as it came.
        if (!(error instanceof Error) || error.constructor !== Error) throw error;
        throw new ToolError('handler_failed', `the upstream's input request "${key}" for "${name}" could not be answered: ${error.message}`);
      }
    }
    params = { name, arguments: request.input, inputResponses, ...(typeof received['requestState'] === 'string' ? { requestState: received['requestState'] } : {}) };
  }
}

const maxInputRounds = 10;

/** Keywords that validate nothing: an output schema of these alone accepts any output. */
const annotations: ReadonlySet<string> = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly']);
const isUnconstrained = (schema: Readonly<Record<string, unknown>>): boolean => Object.keys(schema).every((key) => annotations.has(key));

/**
 * The upstream's result as the handler's answer: an error result is the tool's failure; otherwise
 * the JSON output it carries (its `structuredContent`, or its first text block read as JSON) with
 * the rest of its content beside it. The runtime then holds that output to the contract.
 */
function answerOf(contract: AnyContract, request: ToolRequest<unknown>, result: Record<string, unknown>, onSample: ProxyToolsOptions['onSample']): unknown {
  const blocks = copyContent(Array.isArray(result['content']) ? result['content'] : [], defaultEnvelopeLimits);
  if (!blocks.ok) throw new ToolError('invalid_output', `the content of the upstream's "${contract.name}" is not MCP content blocks: ${blocks.problem}`);
  const content = blocks.content;
  const first = content[0];
  const firstText = first?.type === 'text' ? first.text : undefined;
  if (result['isError'] === true) throw new ToolError('handler_failed', `the upstream's "${contract.name}" answered with an error: ${firstText ?? '(no text)'}`);
  const fromText = firstText === undefined ? undefined : jsonContainer(firstText);
  const output = result['structuredContent'] !== undefined ? result['structuredContent'] : fromText;
  // The runtime writes the output's JSON text as the first block: the upstream's own copy is not repeated.
  const rest = fromText !== undefined ? content.slice(1) : content;
  if (isUnconstrained(contract.outputSchema)) {
    if (onSample !== undefined) {
      try {
        onSample({ tool: contract.name, arguments: request.input as Record<string, unknown>, ...(output === undefined ? {} : { output }), content });
      } catch {
        // Learning is the host's: the call is answered whatever it does.
      }
    }
    // An answer of content alone (text, images) carries no output: the empty object stands for it.
    return withContent(output ?? {}, output === undefined ? content : rest);
  }
  if (output === undefined) throw new ToolError('invalid_output', `the upstream's "${contract.name}" answered with neither structuredContent nor a text block that is JSON, and its contract has an output`);
  return rest.length === 0 ? output : withContent(output, rest);
}

function jsonContainer(text: string): unknown {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A tool listed without a contract, served unchecked (`uncontracted: 'pass'`): any object in, any output out. */
function uncheckedContract(tool: UpstreamTool): AnyContract {
  const anyValue = { is: (_value: unknown): _value is unknown => true, validate: (value: unknown) => ({ ok: true as const, value }) };
  const inputSchema = isPlainObject(tool.inputSchema) ? tool.inputSchema : { type: 'object' };
  return { name: tool.name, description: `${typeof tool.description === 'string' ? tool.description : ''} (served unchecked: no contract)`.trim(), exactNumbers: false, inputSchema, outputSchema: {}, input: anyValue, output: anyValue };
}

async function listAll(upstream: ProxyUpstream): Promise<UpstreamTool[]> {
  const tools: UpstreamTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listed = await upstream.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...listed.tools);
    if (listed.nextCursor === undefined) return tools;
    cursor = listed.nextCursor;
  }
  throw new Error(`the upstream sent more than ${maxPages} pages of tools`);
}
