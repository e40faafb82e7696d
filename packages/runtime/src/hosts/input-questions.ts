import { invalid, validateAnswer, type McpAnswer, type McpAnswerIssue, type McpAnswerValidator, type McpElicitAnswer, type Question } from './input-rounds.js';

/**
 * The three questions a tool can put to the client, each with the capability answering needs and
 * the check of what comes back. `mcpElicit`, `mcpCreateMessage` and `mcpListRoots` (./mcp) ask them.
 */

/** Where the answer comes back (2026-07-28's `inputRequests` key): a name unique within the call. Without it, questions are numbered by kind in the order they are asked (`elicitation-1`, …), which holds as long as every round asks in the same order. */
interface Keyed {
  readonly key?: string;
  /**
   * The call cannot go on without this answer. A 2026-07-28 client that did not declare the
   * capability then gets MissingRequiredClientCapabilityError (-32021, naming the capability) for
   * the call, as the revision requires, instead of an `unavailable` outcome.
   */
  readonly required?: boolean;
}

/** `elicitation/create` in form mode: a message, a flat object schema of what to ask, and the validator of what comes back. */
export interface McpElicitFormParams<T> extends Keyed {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  readonly mode?: 'form';
  /** Checks an accepted answer's `content`, which types it: the schema's generated contract validator, or any Standard Schema. */
  readonly validator: McpAnswerValidator<T>;
}

/** `elicitation/create` in URL mode: the user goes to a page (a sign-in, a payment); an accepted answer carries no content. */
export interface McpElicitUrlParams extends Keyed {
  readonly mode: 'url';
  readonly message: string;
  readonly url: string;
  /** 2025-11-25 names each URL elicitation; one is made when absent. 2026-07-28 has none. */
  readonly elicitationId?: string;
}

/** `sampling/createMessage` parameters (the client's model answers). */
export interface McpCreateMessageParams extends Keyed {
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: Readonly<Record<string, unknown>> }[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface McpCreateMessageResult {
  readonly role: 'user' | 'assistant';
  readonly content: Readonly<Record<string, unknown>> | readonly Readonly<Record<string, unknown>>[];
  readonly model: string;
  readonly stopReason?: string;
  readonly [key: string]: unknown;
}

export interface McpRoot {
  /** A `file://` URI. */
  readonly uri: string;
  readonly name?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const declared = (capabilities: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> | undefined => (isRecord(capabilities[name]) ? capabilities[name] : undefined);

export function elicitQuestion<T>(params: McpElicitFormParams<T> | McpElicitUrlParams): Question<McpElicitAnswer<T | undefined>> {
  const { key, required = false, ...rest } = params;
  if (rest.mode === 'url') {
    const { elicitationId, ...url } = rest;
    return {
      key,
      required,
      capability: { elicitation: { url: {} } },
      kind: 'elicitation',
      request: { method: 'elicitation/create', params: url },
      legacyParams: () => ({ ...url, elicitationId: elicitationId ?? crypto.randomUUID() }),
      // URL mode is its own capability; form is what an empty elicitation capability means.
      supportedBy: (capabilities) => declared(declared(capabilities, 'elicitation') ?? {}, 'url') !== undefined,
      read: async (answer) => readElicitation(answer, async () => ({ status: 'accepted', value: undefined })),
    };
  }
  const { validator, ...form } = rest as Omit<McpElicitFormParams<T>, 'key' | 'required'>;
  return {
    key,
    required,
    capability: { elicitation: {} },
    kind: 'elicitation',
    request: { method: 'elicitation/create', params: form },
    supportedBy: (capabilities) => {
      const elicitation = declared(capabilities, 'elicitation');
      return elicitation !== undefined && (declared(elicitation, 'form') !== undefined || declared(elicitation, 'url') === undefined);
    },
    read: async (answer) =>
      readElicitation(answer, async (content) => {
        if (content === undefined) return invalid('the client accepted the elicitation without content');
        return validateAnswer(validator, content, 'the accepted content');
      }),
  };
}

async function readElicitation<T>(answer: unknown, accepted: (content: unknown) => Promise<McpElicitAnswer<T>>): Promise<McpElicitAnswer<T> | undefined> {
  if (!isRecord(answer)) return undefined;
  const { action } = answer;
  if (action === 'decline') return { status: 'declined' };
  if (action === 'cancel') return { status: 'cancelled' };
  return action === 'accept' ? accepted(answer['content']) : undefined;
}

export function samplingQuestion(params: McpCreateMessageParams): Question<McpAnswer<McpCreateMessageResult>> {
  const { key, required = false, ...request } = params;
  return {
    key,
    required,
    capability: { sampling: {} },
    kind: 'sampling',
    request: { method: 'sampling/createMessage', params: request },
    supportedBy: (capabilities) => declared(capabilities, 'sampling') !== undefined,
    read: async (answer) => {
      if (!isRecord(answer) || answer['content'] === undefined) return undefined;
      const issues: McpAnswerIssue[] = [];
      if (answer['role'] !== 'user' && answer['role'] !== 'assistant') issues.push({ path: ['role'], message: 'must be "user" or "assistant"' });
      if (typeof answer['model'] !== 'string') issues.push({ path: ['model'], message: 'must be a string' });
      const content = answer['content'];
      if (!(isRecord(content) || (Array.isArray(content) && content.every(isRecord)))) issues.push({ path: ['content'], message: 'must be a content block or an array of them' });
      if (issues.length > 0) return invalid(`the client's sampling result is no message: ${issues.map((issue) => `/${issue.path.join('/')} ${issue.message}`).join('; ')}`, issues);
      return { status: 'accepted', value: answer as McpCreateMessageResult };
    },
  };
}

export function rootsQuestion(params: Keyed = {}): Question<McpAnswer<readonly McpRoot[]>> {
  return {
    key: params.key,
    required: params.required ?? false,
    capability: { roots: {} },
    kind: 'roots',
    request: { method: 'roots/list', params: {} },
    supportedBy: (capabilities) => declared(capabilities, 'roots') !== undefined,
    read: async (answer) => {
      if (!isRecord(answer) || !Array.isArray(answer['roots'])) return undefined;
      const roots: McpRoot[] = [];
      const issues: McpAnswerIssue[] = [];
      answer['roots'].forEach((root: unknown, index) => {
        if (!isRecord(root) || typeof root['uri'] !== 'string' || !root['uri'].startsWith('file://')) issues.push({ path: ['roots', index, 'uri'], message: 'must be a file:// URI' });
        else if (root['name'] !== undefined && typeof root['name'] !== 'string') issues.push({ path: ['roots', index, 'name'], message: 'must be a string' });
        else roots.push(root['name'] === undefined ? { uri: root['uri'] } : { uri: root['uri'], name: root['name'] as string });
      });
      if (issues.length > 0) return invalid(`the client's roots are not all roots: ${issues.map((issue) => `/${issue.path.join('/')} ${issue.message}`).join('; ')}`, issues);
      return { status: 'accepted', value: roots };
    },
  };
}
