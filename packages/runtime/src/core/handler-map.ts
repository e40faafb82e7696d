import type { Returned, ToolRequest } from './runtime-types.js';
import type { InputOf, OutputOf, ToolContract } from './contract.js';
import { RegistrationError } from './errors.js';
import { describeThrown } from '../support/describe-thrown.js';
import { ToolMetadata, ToolPolicy } from './policy.js';

/** A set of contracts under their export names: what a generated index exports as `contracts`. */
export type ContractSet = { readonly [exportName: string]: ToolContract<unknown, unknown> };

/**
 * A handler in a handler map: the typed input, and the request it came with (`tool`, `callId`,
 * `input`, and whatever else the runtime tells a handler about its call).
 */
export type ToolHandler<C> = (input: InputOf<C>, request: ToolRequest<InputOf<C>>) => Returned<OutputOf<C>>;

/** What a map entry may say besides its handler; the tool's name comes from its contract. */
export interface ToolOptions {
  /** How many calls the tool may complete (`ToolPolicy.withCallBudget`); unlimited when absent. */
  readonly budget?: number;
  /** What the catalog shows; `ToolMetadata.of(contract.description)` when absent. */
  readonly metadata?: ToolMetadata;
}

export interface HandlerEntry<C> extends ToolOptions {
  readonly handler: ToolHandler<C>;
  readonly protocol?: false;
}

/** A tool served outside the process: its calls go through `defer`/`callAsync` and end with `complete` or `fail`. */
export interface ProtocolEntry extends ToolOptions {
  readonly protocol: true;
  readonly handler?: never;
}

/**
 * Exactly one entry per contract of the set, under the contract's export name: a handler, a
 * handler with options, or a protocol tool. A missing or extra entry, or a handler whose input or
 * output does not fit its contract, is a type error at that entry.
 */
export type HandlerMap<Cs extends ContractSet> = { readonly [K in keyof Cs]: ToolHandler<Cs[K]> | HandlerEntry<Cs[K]> | ProtocolEntry };

/** One tool of a map, checked and ready for the runtime to register. */
export interface PlannedTool {
  readonly policy: ToolPolicy;
  readonly metadata: ToolMetadata;
  readonly contract: ToolContract<unknown, unknown>;
  /** Absent for protocol tools. */
  readonly handler?: (request: ToolRequest<unknown>) => unknown;
  readonly asynchronous: boolean;
}

const entryKeys: ReadonlySet<string> = new Set(['handler', 'protocol', 'budget', 'metadata']);

/**
 * Checks a whole map against its contract set before anything is registered, so a mistake
 * registers nothing: every contract has an entry and every entry a contract, each entry is well
 * formed, and no tool name is taken twice (within the set, or by `isRegistered`). Throws one
 * `RegistrationError` naming every problem.
 */
export function planHandlerMap(contracts: unknown, handlers: unknown, isRegistered: (toolName: string) => boolean): PlannedTool[] {
  try {
    return planReadableMap(contracts, handlers, isRegistered);
  } catch (error) {
    if (error instanceof RegistrationError) throw error;
    // A getter that throws, a revoked proxy, a trap: the map or the set cannot be read as data.
    throw new RegistrationError(`registerAll registered nothing: the contract set or the handler map cannot be read (a getter or proxy threw): ${describeThrown(error)}`);
  }
}

function planReadableMap(contracts: unknown, handlers: unknown, isRegistered: (toolName: string) => boolean): PlannedTool[] {
  if (!isObject(contracts)) throw new RegistrationError(`registerAll expects the contract set (the generated index's \`contracts\`), got ${describeThrown(contracts)}`);
  if (!isObject(handlers)) throw new RegistrationError(`registerAll expects an object of handlers, one per contract, got ${describeThrown(handlers)}`);
  const problems: string[] = [];
  const planned: PlannedTool[] = [];
  const exportNames = Object.keys(contracts);
  const extra = Object.keys(handlers).filter((key) => !Object.hasOwn(contracts, key));
  if (extra.length > 0) problems.push(`no contract in the set for ${extra.map((key) => JSON.stringify(key)).join(', ')}`);
  const takenBy = new Map<string, string>();
  for (const exportName of exportNames) {
    let contract: unknown;
    let name: unknown;
    try {
      contract = (contracts as Record<string, unknown>)[exportName];
      name = isObject(contract) ? contract['name'] : undefined;
    } catch (error) {
      problems.push(`${JSON.stringify(exportName)} cannot be read (a getter or proxy threw): ${describeThrown(error)}`);
      continue;
    }
    if (typeof name !== 'string') {
      problems.push(`${JSON.stringify(exportName)} is not a contract (a generated module's \`contract\`)`);
      continue;
    }
    const tool = `${exportName} ("${name}")`;
    if (!Object.hasOwn(handlers, exportName)) {
      problems.push(`${tool} has no entry`);
      continue;
    }
    const clash = takenBy.get(name);
    if (clash !== undefined) problems.push(`${tool} has the same tool name as ${clash}`);
    else if (isRegistered(name)) problems.push(`${tool} is already registered`);
    takenBy.set(name, exportName);
    let entry: PlannedTool | string;
    try {
      entry = planEntry(contract as unknown as ToolContract<unknown, unknown>, (handlers as Record<string, unknown>)[exportName]);
    } catch (error) {
      entry = `cannot be read (a getter or proxy threw): ${describeThrown(error)}`;
    }
    if (typeof entry === 'string') problems.push(`${tool} ${entry}`);
    else planned.push(entry);
  }
  if (problems.length > 0) throw new RegistrationError(`registerAll registered nothing: ${problems.join('; ')}`);
  return planned;
}

/** An entry as the runtime registers it, or what is wrong with it. */
function planEntry(contract: ToolContract<unknown, unknown>, entry: unknown): PlannedTool | string {
  if (typeof entry !== 'function' && !isObject(entry)) return `needs a handler function, { handler } or { protocol: true }, got ${describeThrown(entry)}`;
  const options: Record<string, unknown> = typeof entry === 'function' ? { handler: entry } : entry;
  const unknownKeys = Object.keys(options).filter((key) => !entryKeys.has(key));
  if (unknownKeys.length > 0) return `has unknown option${unknownKeys.length === 1 ? '' : 's'} ${unknownKeys.map((key) => JSON.stringify(key)).join(', ')} (an entry takes handler, protocol, budget and metadata)`;
  const { handler, protocol, budget, metadata } = options;
  if (protocol !== undefined && typeof protocol !== 'boolean') return `has protocol ${describeThrown(protocol)}: it is true or left out`;
  if (protocol === true && handler !== undefined) return 'is a protocol tool with a handler: a protocol tool is completed from outside, so leave one of them out';
  if (protocol !== true && typeof handler !== 'function') return `needs a handler function or { protocol: true }, got handler ${describeThrown(handler)}`;
  if (metadata !== undefined && !(metadata instanceof ToolMetadata)) return `has metadata ${describeThrown(metadata)}: use ToolMetadata.of(description)`;
  let policy = ToolPolicy.json(contract.name);
  if (budget !== undefined) {
    if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 0) return `has budget ${describeThrown(budget)}: a call budget is a whole number of at least 0`;
    policy = policy.withCallBudget(budget);
  }
  const planned = { policy, metadata: metadata ?? ToolMetadata.of(contract.description), contract };
  if (protocol === true) return { ...planned, asynchronous: false };
  const typed = handler as (input: unknown, request: ToolRequest<unknown>) => unknown;
  return { ...planned, handler: (request) => typed(request.input, request), asynchronous: isAsyncFunction(typed) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isAsyncFunction(handler: unknown): boolean {
  const tag = Object.prototype.toString.call(handler);
  return tag === '[object AsyncFunction]' || tag === '[object AsyncGeneratorFunction]';
}
