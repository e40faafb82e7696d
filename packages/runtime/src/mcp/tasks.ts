import { maxCallIdLength, type CallResult, type CapabilityRuntime, type DeferredAnswers, type DeferredCall, type DeferredStatus } from '../core/capability-runtime.js';
import { shortened, ToolError } from '../core/errors.js';
import { describeThrown } from '../support/describe-thrown.js';
import { isObjectRecord } from '../support/is-object-record.js';
import { failureText } from '../core/host-results.js';
import { invalidParamsCode, McpRequestError, missingCapabilityCode, type McpInputRequest, type TaskQuestions } from './input-rounds.js';

/**
 * The MCP tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) at 2026-07-28: a
 * `tools/call` from a client that declares the extension in its request's capabilities may be
 * answered with a task (`resultType: "task"`), which the client follows with `tasks/get` (its
 * status, and its result or error inlined once it ends), answers with `tasks/update` (the
 * questions its handler asks meanwhile) and ends with `tasks/cancel`. Here a task is one runtime
 * call (`deferAsync`, its id the task's id): the same envelope, contract, budget and record as any call, its status read
 * from the call (working until its promise settles), its result the call's result as `tools/call`
 * would have answered it, so an output that breaks its contract ends the task `failed` and is
 * never delivered. Which tools may become tasks is the server's choice (`McpTasksOptions`).
 */

/** The extension's identifier, under `capabilities.extensions` of the server and of each request. */
export const tasksExtension = 'io.modelcontextprotocol/tasks';

/**
 * `optional`: a client that declares the extension gets a task when the call outlasts its first
 * turn, any other client the plain result; `required`: the same for a declaring client, and a
 * client that does not declare it is refused with -32021 (Missing Required Client Capability).
 */
export type McpTaskSupport = 'optional' | 'required';

export interface McpTasksOptions {
  /** The tools that may be served as tasks, by name; every other tool always answers its `tools/call` with its result. */
  readonly tools: Readonly<Record<string, McpTaskSupport>>;
  /** How long a task is kept from its creation, in whole milliseconds (default 3,600,000: an hour); then it is forgotten. */
  readonly ttlMs?: number;
  /** How often a client should poll `tasks/get`, in whole milliseconds (default 1,000). */
  readonly pollIntervalMs?: number;
}

export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as every answer about it carries it. */
export interface McpTask {
  [key: string]: unknown;
  readonly taskId: string;
  readonly status: McpTaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/** What a `tools/call` that became a task answers. */
export interface McpCreateTaskResult extends McpTask {
  readonly resultType: 'task';
}

/** What `tasks/get` answers: the task, with its open questions, its result or its error by status. */
export interface McpGetTaskResult extends McpTask {
  readonly resultType: 'complete';
  readonly inputRequests?: Record<string, McpInputRequest>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: Readonly<Record<string, unknown>> };
}

/** The runtime's error codes that end a task `failed` (a JSON-RPC error); every other error is a tool error, `completed` with `isError`. */
const protocolFailures = new Set(['handler_failed', 'invalid_output', 'lease_expired', 'store_unavailable']);
const internalErrorCode = -32603;
const defaultTtlMs = 3_600_000;
const defaultPollIntervalMs = 1_000;

export interface TaskSettings {
  readonly support: ReadonlyMap<string, McpTaskSupport>;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/** The options checked at once: a wrong value is a RangeError, never a task a client misreads. */
export function taskSettings(options: McpTasksOptions): TaskSettings {
  const { tools, ttlMs = defaultTtlMs, pollIntervalMs = defaultPollIntervalMs } = options;
  if (typeof tools !== 'object' || tools === null) throw new RangeError('tasks.tools must name the tools served as tasks: { toolName: "optional" | "required" }');
  for (const [name, support] of Object.entries(tools)) {
    if (support !== 'optional' && support !== 'required') throw new RangeError(`tasks.tools.${name} must be "optional" or "required", got ${String(support)}`);
  }
  for (const [key, value] of Object.entries({ ttlMs, pollIntervalMs })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`tasks.${key} must be a whole number of milliseconds of at least 1, got ${String(value)}`);
  }
  return { support: new Map(Object.entries(tools)), ttlMs, pollIntervalMs };
}

/** Whether a request's capabilities declare the extension. */
export function declaresTasks(clientCapabilities: Readonly<Record<string, unknown>>): boolean {
  const extensions = clientCapabilities['extensions'];
  return isObjectRecord(extensions) && extensions[tasksExtension] !== undefined;
}

/** The -32021 error for a request that needs the extension its client did not declare. */
export function tasksCapabilityMissing(what: string): McpRequestError {
  return new McpRequestError(missingCapabilityCode, `Missing required client capability: ${what} needs the ${tasksExtension} extension in the request's io.modelcontextprotocol/clientCapabilities`, {
    requiredCapabilities: { extensions: { [tasksExtension]: {} } },
  });
}

/** The methods of the extension for one runtime's tools, as `mcpToolHandlers` serves them. */
export class McpTaskService {
  constructor(
    private readonly runtime: CapabilityRuntime,
    private readonly settings: TaskSettings,
    /** A call's result as `tools/call` words it. */
    private readonly toolResult: (tool: string, result: CallResult) => Record<string, unknown>,
  ) {}

  supportOf(tool: string): McpTaskSupport | undefined {
    return this.settings.support.get(tool);
  }

  /** Starts a call that may become a task: a deferred call, kept for the task's TTL. */
  start(tool: string, args: unknown, context: unknown, signal: AbortSignal | undefined): Promise<DeferredCall> {
    return this.runtime.deferAsync(tool, args, { context, signal, ttlMs: this.settings.ttlMs });
  }

  /**
   * Makes a running call a task: its questions are stored with the call from now on (`questions`),
   * where every replica reads and answers them, and the CreateTaskResult is answered once the call
   * reads back from the store, so that `tasks/get` resolves it at once.
   */
  create(call: DeferredCall): { readonly questions: TaskQuestions; readonly created: Promise<McpCreateTaskResult> } {
    const questions: TaskQuestions = { ask: (key, request) => this.runtime.askAsync(call.callId, key, request) };
    const created = this.read(call.callId).then((status): McpCreateTaskResult => {
      if (status === undefined) throw new McpRequestError(internalErrorCode, `task ${call.callId} could not be read back after it was created`);
      return { resultType: 'task', ...this.task(status) };
    });
    return { questions, created };
  }

  async get(taskId: unknown): Promise<McpGetTaskResult> {
    const status = await this.find(taskId);
    const task = this.task(status);
    if (task.status === 'input_required') return { resultType: 'complete', ...task, inputRequests: status.questions as Record<string, McpInputRequest> };
    const result = status.result;
    if (result === undefined || task.status === 'cancelled') return { resultType: 'complete', ...task };
    if (task.status === 'failed' && !result.ok) {
      const message = failureText(result);
      return { resultType: 'complete', ...task, statusMessage: message, error: { code: internalErrorCode, message, data: { code: result.error.code } } };
    }
    return { resultType: 'complete', ...task, result: this.toolResult(status.tool, result) };
  }

  /**
   * Stores the answers with the task, for the questions they answer, through whichever replica the
   * request reaches; the replica that runs the handler hears them within its poll. A running task
   * acknowledges the update (answers under keys it does not wait on are ignored, as the extension
   * says, and a key answered already keeps its first answer); a task that has ended cannot take an
   * answer, and an update that delivered none to it is an error that says so, never an
   * acknowledgement (one that was delivered before it ended, retried, is acknowledged).
   */
  async update(taskId: unknown, inputResponses: unknown): Promise<{ resultType: 'complete' }> {
    if (!isObjectRecord(inputResponses)) {
      throw new McpRequestError(invalidParamsCode, 'tasks/update needs inputResponses: an object of answers by the keys of the inputRequests they answer', { reason: 'invalid_input_responses' });
    }
    const status = await this.find(taskId);
    let receipt: DeferredAnswers;
    try {
      receipt = await this.runtime.answerAsync(status.callId, inputResponses);
    } catch (error) {
      if (error instanceof ToolError && error.code === 'unknown_call') throw unknownTask(taskId);
      throw storeError(error);
    }
    if (receipt.state !== 'done' || [...receipt.outcomes.values()].includes('answered')) return { resultType: 'complete' };
    const ended = await this.read(status.callId);
    const how = ended === undefined ? 'expired' : statusOf(ended);
    throw new McpRequestError(invalidParamsCode, `task ${status.callId} has ended (${how}): no question waits for an answer, and this one is not delivered`, { reason: 'task_ended', status: how });
  }

  /** Cancels a task that has not ended (its handler's signal is aborted where it runs); a task that has is left as it ended. */
  async cancel(taskId: unknown): Promise<{ resultType: 'complete' }> {
    const status = await this.find(taskId);
    if (status.state !== 'done') {
      try {
        await this.runtime.cancelAsync(status.callId);
      } catch (error) {
        // Ended meanwhile: the same empty answer. A store that cannot answer is the client's to hear.
        if (!(error instanceof ToolError && error.code === 'unknown_call')) throw storeError(error);
      }
    }
    return { resultType: 'complete' };
  }

  private task(status: DeferredStatus): McpTask {
    return {
      taskId: status.callId,
      status: statusOf(status),
      createdAt: new Date(status.startedAt).toISOString(),
      lastUpdatedAt: new Date(status.finishedAt ?? status.updatedAt ?? status.startedAt).toISOString(),
      ttlMs: status.expiresAt - status.startedAt,
      pollIntervalMs: this.settings.pollIntervalMs,
    };
  }

  /** The task's call, or the -32602 error for an id that names none (never made, or expired). */
  private async find(taskId: unknown): Promise<DeferredStatus> {
    // An id longer than any the runtime mints names no task: the store is not asked, and the answer does not echo it whole.
    const status = typeof taskId === 'string' && taskId.length <= maxCallIdLength ? await this.read(taskId) : undefined;
    if (status === undefined) throw unknownTask(taskId);
    return status;
  }

  private async read(callId: string): Promise<DeferredStatus | undefined> {
    try {
      return await this.runtime.readCall(callId);
    } catch (error) {
      throw storeError(error);
    }
  }
}

/** The -32602 error for an id that names no task (never made, or expired). */
function unknownTask(taskId: unknown): McpRequestError {
  const named = typeof taskId === 'string' ? JSON.stringify(shortened(taskId, maxCallIdLength)) : `of type ${taskId === null ? 'null' : Array.isArray(taskId) ? 'array' : typeof taskId}`;
  return new McpRequestError(invalidParamsCode, `Failed to retrieve task: no task ${named} (unknown, or expired)`, { reason: 'unknown_task' });
}

function statusOf(status: DeferredStatus): McpTaskStatus {
  const result = status.result;
  if (result === undefined) return status.questions === undefined ? 'working' : 'input_required';
  if (result.ok) return 'completed';
  if (status.outcome === 'cancelled') return 'cancelled';
  return protocolFailures.has(result.error.code) ? 'failed' : 'completed';
}

/** The runtime's store could not answer (`store_unavailable`): a JSON-RPC internal error that says so. */
function storeError(error: unknown): McpRequestError {
  return new McpRequestError(internalErrorCode, error instanceof ToolError ? `${error.code}: ${error.message}` : describeThrown(error), { code: error instanceof ToolError ? error.code : 'internal' });
}
