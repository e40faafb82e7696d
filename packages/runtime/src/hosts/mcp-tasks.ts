import type { CallResult, CapabilityRuntime } from '../capability-runtime.js';
import { failureText } from './results.js';
import { invalidParamsCode, McpRequestError, missingCapabilityCode, type McpInputRequest, type TaskQuestions } from './input-rounds.js';

/**
 * The MCP tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) at 2026-07-28: a
 * `tools/call` from a client that declares the extension in its request's capabilities may be
 * answered with a task (`resultType: "task"`), which the client follows with `tasks/get` (its
 * status, and its result or error inlined once it ends), answers with `tasks/update` (the
 * questions its handler asks meanwhile) and ends with `tasks/cancel`. Here a task is one runtime
 * call (`callAsync`): the same envelope, contract, budget and record as any call, its status read
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
  /** How long a task is kept from its creation, in whole milliseconds (default 3,600,000: an hour); a call still running then is cancelled. */
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
  return typeof extensions === 'object' && extensions !== null && (extensions as Record<string, unknown>)[tasksExtension] !== undefined;
}

/** The -32021 error for a request that needs the extension its client did not declare. */
export function tasksCapabilityMissing(what: string): McpRequestError {
  return new McpRequestError(missingCapabilityCode, `Missing required client capability: ${what} needs the ${tasksExtension} extension in the request's io.modelcontextprotocol/clientCapabilities`, {
    requiredCapabilities: { extensions: { [tasksExtension]: {} } },
  });
}

/** One task: its call, the questions its handler waits on, and how its result reads. */
class TaskEntry implements TaskQuestions {
  readonly createdAt = Date.now();
  lastUpdatedAt = this.createdAt;
  settled: CallResult | undefined;
  /** The handler's questions without an answer yet, by key, each with where its answer goes. */
  readonly open = new Map<string, { readonly request: McpInputRequest; readonly answer: (value: unknown) => void }>();

  constructor(
    readonly taskId: string,
    readonly settings: TaskSettings,
    /** Ends the call as cancelled (the handler's signal is aborted). */
    readonly cancel: () => void,
    /** The call's result as `tools/call` would have answered it. */
    readonly toolResult: (result: CallResult) => Record<string, unknown>,
  ) {}

  get expiresAt(): number {
    return this.createdAt + this.settings.ttlMs;
  }

  ask(key: string, request: McpInputRequest, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const withdraw = (): void => {
        this.open.delete(key);
        reject(signal.reason);
      };
      signal.addEventListener('abort', withdraw, { once: true });
      this.open.set(key, {
        request,
        answer: (value) => {
          signal.removeEventListener('abort', withdraw);
          this.open.delete(key);
          resolve(value);
        },
      });
      this.touch();
    });
  }

  touch(): void {
    this.lastUpdatedAt = Date.now();
  }

  status(): McpTaskStatus {
    if (this.settled === undefined) return this.open.size > 0 ? 'input_required' : 'working';
    if (this.settled.ok) return 'completed';
    if (this.settled.error.code === 'cancelled') return 'cancelled';
    return protocolFailures.has(this.settled.error.code) ? 'failed' : 'completed';
  }

  task(): McpTask {
    return {
      taskId: this.taskId,
      status: this.status(),
      createdAt: new Date(this.createdAt).toISOString(),
      lastUpdatedAt: new Date(this.lastUpdatedAt).toISOString(),
      ttlMs: this.settings.ttlMs,
      pollIntervalMs: this.settings.pollIntervalMs,
    };
  }

  detailed(): McpGetTaskResult {
    const task = this.task();
    const settled = this.settled;
    if (task.status === 'input_required') return { resultType: 'complete', ...task, inputRequests: Object.fromEntries([...this.open].map(([key, open]) => [key, open.request])) };
    if (settled === undefined || task.status === 'cancelled') return { resultType: 'complete', ...task };
    if (task.status === 'failed' && !settled.ok) {
      const message = failureText(settled);
      return { resultType: 'complete', ...task, statusMessage: message, error: { code: internalErrorCode, message, data: { code: settled.error.code } } };
    }
    return { resultType: 'complete', ...task, result: this.toolResult(settled) };
  }
}

/**
 * The tasks of one runtime, whichever handlers serve them: a stateless SDK server is made anew
 * for each request, so the tasks it creates outlive it here. Each is kept until its TTL has passed.
 */
class TaskBook {
  private readonly tasks = new Map<string, TaskEntry>();
  private created = 0;

  create(settings: TaskSettings, cancel: () => void, toolResult: (result: CallResult) => Record<string, unknown>): TaskEntry {
    // Expired tasks nobody reads again go in a sweep every 256 tasks: the book stays bounded at O(1) per task.
    if (++this.created % 256 === 0) for (const entry of this.tasks.values()) this.expireIfDue(entry);
    const entry = new TaskEntry(crypto.randomUUID(), settings, cancel, toolResult);
    this.tasks.set(entry.taskId, entry);
    return entry;
  }

  /** The live task, or the -32602 error for an id that names none (never made here, or expired). */
  find(taskId: unknown): TaskEntry {
    const entry = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (entry === undefined || this.expireIfDue(entry)) throw new McpRequestError(invalidParamsCode, `Failed to retrieve task: no task ${JSON.stringify(taskId)} (unknown, or expired)`, { reason: 'unknown_task' });
    return entry;
  }

  private expireIfDue(entry: TaskEntry): boolean {
    if (entry.expiresAt > Date.now()) return false;
    this.tasks.delete(entry.taskId);
    if (entry.settled === undefined) entry.cancel();
    return true;
  }
}

const books = new WeakMap<CapabilityRuntime, TaskBook>();

function bookOf(runtime: CapabilityRuntime): TaskBook {
  const kept = books.get(runtime);
  if (kept !== undefined) return kept;
  const book = new TaskBook();
  books.set(runtime, book);
  return book;
}

/** The methods of the extension for one runtime's tools, as `mcpToolHandlers` serves them. */
export class McpTaskService {
  private readonly book: TaskBook;

  constructor(
    runtime: CapabilityRuntime,
    readonly settings: TaskSettings,
  ) {
    this.book = bookOf(runtime);
  }

  supportOf(tool: string): McpTaskSupport | undefined {
    return this.settings.support.get(tool);
  }

  /**
   * Makes a running call a task: `result` is its call's promise, `cancel` ends it, `toolResult`
   * words its result as `tools/call` would. Answers the CreateTaskResult, which `tasks/get` resolves at once.
   */
  create(result: Promise<CallResult>, cancel: () => void, toolResult: (result: CallResult) => Record<string, unknown>): { readonly entry: TaskQuestions; readonly created: McpCreateTaskResult } {
    const entry = this.book.create(this.settings, cancel, toolResult);
    void result.then((settled) => {
      entry.settled = settled;
      entry.touch();
    });
    return { entry, created: { resultType: 'task', ...entry.task() } };
  }

  get(taskId: unknown): McpGetTaskResult {
    return this.book.find(taskId).detailed();
  }

  /** Hands the answers to the questions they answer; answers to keys not open are ignored, as the extension says. */
  update(taskId: unknown, inputResponses: unknown): { resultType: 'complete' } {
    const entry = this.book.find(taskId);
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
      throw new McpRequestError(invalidParamsCode, 'tasks/update needs inputResponses: an object of answers by the keys of the inputRequests they answer', { reason: 'invalid_input_responses' });
    }
    for (const [key, answer] of Object.entries(inputResponses as Record<string, unknown>)) entry.open.get(key)?.answer(answer);
    return { resultType: 'complete' };
  }

  /** Cancels a task that has not ended; a task that has is left as it ended (the same empty answer). */
  cancel(taskId: unknown): { resultType: 'complete' } {
    const entry = this.book.find(taskId);
    if (entry.settled === undefined) entry.cancel();
    return { resultType: 'complete' };
  }
}
