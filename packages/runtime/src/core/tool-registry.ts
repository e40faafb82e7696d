import type { ToolContract } from './contract.js';
import { RegistrationError } from './errors.js';
import { planHandlerMap, type ContractSet, type HandlerMap } from './handler-map.js';
import { standingFor } from './json.js';
import type { ToolMetadata, ToolPolicy } from './policy.js';
import type { CatalogEntry, ToolRequest } from './runtime-types.js';
import { describeThrown } from '../support/describe-thrown.js';
import { hostJsonSchema } from '../support/host-json-schema.js';

export type AnyContract = ToolContract<unknown, unknown>;
export type Handler = (request: ToolRequest<unknown>) => unknown;

/** A registered tool, as every call finds it. */
export interface ToolEntry {
  readonly name: string;
  readonly metadata: ToolMetadata;
  readonly contract: AnyContract;
  /** Absent for protocol tools, which are completed from outside. */
  readonly handler?: Handler;
  /** Known to return promises (an async function, or one that returned a promise once): `call` refuses it before running it. */
  asynchronous: boolean;
  /** The policy's call budget; undefined is unlimited. */
  readonly budget: number | undefined;
  /** Calls left; undefined is unlimited. With a store the budget is kept there and this stays at the budget. */
  remaining: number | undefined;
}

/** The tools a runtime serves, by name, and the catalog hosts list them from. */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolEntry>();
  #changes = 0;

  /** The tool under `name`; a name that is no string finds none (a map compares a key, and reads nothing of it). */
  get(name: unknown): ToolEntry | undefined {
    return (this.#tools as ReadonlyMap<unknown, ToolEntry>).get(name);
  }

  /** The registered names, sorted: what an unknown tool's error lists. */
  names(): string[] {
    return [...this.#tools.keys()].sort();
  }

  register(policy: ToolPolicy, metadata: ToolMetadata, contract: AnyContract, handler: Handler | undefined, asynchronous: boolean): void {
    if (policy.name !== contract.name) throw new RegistrationError(`policy names the tool "${policy.name}" but its contract is for "${contract.name}"`);
    if (this.#tools.has(policy.name)) throw new RegistrationError(`tool "${policy.name}" is already registered`);
    const entry: ToolEntry = { name: policy.name, metadata, contract, asynchronous, budget: policy.callBudget, remaining: policy.callBudget };
    this.#tools.set(policy.name, handler === undefined ? entry : { ...entry, handler });
    this.#changes++;
  }

  /** A whole handler map, checked first (`planHandlerMap`): a mistake registers nothing. */
  registerAll<Cs extends ContractSet>(contracts: Cs, handlers: HandlerMap<Cs>): void {
    const planned = planHandlerMap(contracts, handlers, (name) => this.#tools.has(name));
    const registered: string[] = [];
    try {
      for (const tool of planned) {
        this.register(tool.policy, tool.metadata, tool.contract, tool.handler, tool.asynchronous);
        registered.push(tool.policy.name);
      }
    } catch (error) {
      // A contract whose getters answer differently the second time: the tools of this map registered so far go again.
      for (const name of registered) this.#tools.delete(name);
      this.#changes++;
      throw new RegistrationError(`registerAll registered nothing: ${error instanceof RegistrationError ? error.message : `a contract cannot be read (a getter or proxy threw): ${describeThrown(error)}`}`);
    }
  }

  /** Changes whenever the catalog does. */
  get revision(): number {
    return this.#changes;
  }

  /** Every tool with copies of its contract's schemas as hosts take them, sorted by name. */
  catalog(): CatalogEntry[] {
    return [...this.#tools.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((entry) => {
        const { promptInputSchema, promptOutputSchema } = entry.metadata;
        const exact = entry.contract.exactNumbers === true;
        return {
          name: entry.name,
          description: entry.metadata.description,
          inputSchema: schemaForHosts(entry.contract.inputSchema, 'input', exact),
          outputSchema: schemaForHosts(entry.contract.outputSchema, 'output', exact),
          exactNumbers: exact,
          ...(promptInputSchema === undefined ? {} : { promptInputSchema: schemaForHosts(promptInputSchema, 'input', false) }),
          ...(promptOutputSchema === undefined ? {} : { promptOutputSchema: schemaForHosts(promptOutputSchema, 'output', false) }),
        };
      });
  }
}

/** A tool name as records keep it: a name that is not a string is described (`describeThrown` gives a string as it is). */
export function toolName(name: unknown): string {
  return describeThrown(name);
}

/** A schema as a host takes it (a fresh copy); an exact-mode contract's keeps its digits for the JSON text the runtime writes itself. */
function schemaForHosts(schema: Readonly<Record<string, unknown>>, role: 'input' | 'output', exact: boolean): Record<string, unknown> {
  const shown = hostJsonSchema(schema, role);
  return exact ? standingFor(shown, schema) : shown;
}
