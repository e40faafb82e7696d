import { copyContent, type AudioBlock, type ContentBlock, type ImageBlock, type TextBlock } from '../core/content.js';
import type { PathSegment } from '../core/contract.js';
import { defaultEnvelopeLimits } from '../core/envelope.js';
import { invalid, kindOf, validateAnswer, type McpAnswer, type McpAnswerIssue, type McpAnswerValidator, type McpElicitAnswer, type Question } from './input-rounds.js';

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

/** A tool call the model asks for in a sampling message (a request that offered it `tools`). */
export interface McpToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** A tool's result, given back to the model in a sampling message. */
export interface McpToolResultBlock {
  readonly type: 'tool_result';
  readonly toolUseId: string;
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** A block of a sampling message: MCP's `SamplingMessageContentBlock` (text, image, audio, tool use, tool result). */
export type McpSamplingContent = TextBlock | ImageBlock | AudioBlock | McpToolUseBlock | McpToolResultBlock;

/** A message to or from the client's model: one block, or several. */
export interface McpSamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly content: McpSamplingContent | readonly McpSamplingContent[];
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** `sampling/createMessage` parameters (the client's model answers). */
export interface McpCreateMessageParams extends Keyed {
  readonly messages: readonly McpSamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The client's answer to `sampling/createMessage`: its model's message, each block checked to be a sampling content block. */
export interface McpCreateMessageResult {
  readonly role: 'user' | 'assistant';
  readonly content: McpSamplingContent | readonly McpSamplingContent[];
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
        // A form's answer is an object of its fields, whatever the validator would let through.
        if (!isRecord(content)) return invalid(`the accepted content is ${kindOf(content)}, not an object of the form's fields`, [{ path: [], message: 'must be an object' }]);
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
      issues.push(...samplingContentIssues(answer['content'], ['content']));
      if (issues.length > 0) return invalid(`the client's sampling result is no message: ${describeIssues(issues)}`, issues);
      return { status: 'accepted', value: answer as McpCreateMessageResult };
    },
  };
}

/** Issues as one line: `/content/text must be a string; …`. */
export function describeIssues(issues: readonly McpAnswerIssue[]): string {
  return issues.map((issue) => `/${issue.path.join('/')} ${issue.message}`).join('; ');
}

/** The strings each kind of sampling block needs (tool use's `input` and tool result's `content` are checked apart). */
const samplingStrings: Readonly<Record<McpSamplingContent['type'], readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  tool_use: ['id', 'name'],
  tool_result: ['toolUseId'],
};

/** What makes a message's content no sampling content block, or no array of them: a block per issue, at its path. */
export function samplingContentIssues(content: unknown, path: readonly PathSegment[]): McpAnswerIssue[] {
  if (!Array.isArray(content)) return samplingBlockIssues(content, path);
  return content.flatMap((block, index) => samplingBlockIssues(block, [...path, index]));
}

function samplingBlockIssues(block: unknown, path: readonly PathSegment[]): McpAnswerIssue[] {
  if (!isRecord(block)) return [{ path, message: 'must be a content block or an array of them' }];
  const type = block['type'];
  if (typeof type !== 'string' || !Object.hasOwn(samplingStrings, type)) return [{ path: [...path, 'type'], message: `must be one of ${Object.keys(samplingStrings).join(', ')}` }];
  const issues: McpAnswerIssue[] = samplingStrings[type as McpSamplingContent['type']].filter((key) => typeof block[key] !== 'string').map((key) => ({ path: [...path, key], message: 'must be a string' }));
  if (type === 'tool_use' && !isRecord(block['input'])) issues.push({ path: [...path, 'input'], message: 'must be an object' });
  if (type === 'tool_result') {
    const results = copyContent(block['content'], defaultEnvelopeLimits);
    if (!results.ok) issues.push({ path: [...path, 'content'], message: `must be MCP content blocks: ${results.problem}` });
  }
  return issues;
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
      if (issues.length > 0) return invalid(`the client's roots are not all roots: ${describeIssues(issues)}`, issues);
      return { status: 'accepted', value: roots };
    },
  };
}
