/**
 * Tool names as hosts take them. Contract names may hold dots (`notes.search`), which MCP and
 * Gemini accept and OpenAI and Anthropic do not (`^[a-zA-Z0-9_-]{1,64}$`). The portable form
 * replaces each dot with `_`; the mapping is made for a whole set of tools at once, so that two
 * names that would meet (`a.b_c`, `a_b.c`) or a name over the limit are refused, naming the tool,
 * before any definition reaches a model. The build-time target profiles use the same rules.
 */
export const portableNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
export const maxPortableNameLength = 64;

/** A tool set whose names a host cannot take: thrown when the definitions are made. */
export class ToolNameError extends Error {
  override readonly name = 'ToolNameError';
}

export function portableName(name: string): string {
  return name.replaceAll('.', '_');
}

/** Why a contract name has no portable form on its own (length), or undefined. */
export function portableNameProblem(name: string): string | undefined {
  const portable = portableName(name);
  if (portable.length > maxPortableNameLength) return `becomes "${portable}", ${portable.length} characters; the limit is ${maxPortableNameLength}`;
  if (!portableNamePattern.test(portable)) return `becomes "${portable}", which is not of the form ^[a-zA-Z0-9_-]{1,64}$`;
  return undefined;
}

/** Both directions of a name mapping for one set of tools. */
export interface ToolNames {
  /** The name a host shows the model. */
  toHost(name: string): string;
  /** The contract name for the name a model used, or undefined for a name no tool has. */
  fromHost(hostName: string): string | undefined;
}

/** `contract`: names as they are (MCP, Gemini); `portable`: dots become `_` (OpenAI, Anthropic, the AI SDK). */
export type NameStyle = 'contract' | 'portable';

export function toolNames(names: readonly string[], style: NameStyle): ToolNames {
  const toHost = new Map<string, string>();
  const fromHost = new Map<string, string>();
  for (const name of names) {
    const hostName = style === 'portable' ? portableName(name) : name;
    if (style === 'portable') {
      const problem = portableNameProblem(name);
      if (problem !== undefined) throw new ToolNameError(`tool "${name}" cannot be offered under a portable name: it ${problem}; rename the tool`);
    }
    const other = fromHost.get(hostName);
    if (other !== undefined) throw new ToolNameError(`tools "${other}" and "${name}" would both be offered as "${hostName}"; rename one of them`);
    toHost.set(name, hostName);
    fromHost.set(hostName, name);
  }
  return {
    toHost: (name) => toHost.get(name) ?? name,
    fromHost: (hostName) => fromHost.get(hostName),
  };
}
