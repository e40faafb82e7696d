import { copyEnvelope, type EnvelopeLimits } from './envelope.js';
import { isPlainObject } from '../support/is-plain-object.js';

/**
 * Content a handler returns beside its output: what is not JSON data (a screenshot, a recording,
 * a file). The shapes are MCP's content blocks (2025-11-25), which the other hosts map from.
 */
export type ContentBlock = TextBlock | ImageBlock | AudioBlock | ResourceLinkBlock | EmbeddedResourceBlock;

interface BlockExtras {
  readonly annotations?: Readonly<Record<string, unknown>>;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

export interface TextBlock extends BlockExtras {
  readonly type: 'text';
  readonly text: string;
}

/** `data` is base64. */
export interface ImageBlock extends BlockExtras {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

export interface AudioBlock extends BlockExtras {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

export interface ResourceLinkBlock extends BlockExtras {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/** A resource's contents: `text`, or base64 `blob`. */
export interface EmbeddedResourceBlock extends BlockExtras {
  readonly type: 'resource';
  readonly resource: { readonly uri: string; readonly mimeType?: string; readonly _meta?: Readonly<Record<string, unknown>> } & ({ readonly text: string } | { readonly blob: string });
}

/** An output with content beside it; made by `withContent`, recognised by the runtime only. */
export class OutputWithContent<O> {
  /** @internal */
  constructor(
    readonly output: O,
    readonly content: readonly ContentBlock[],
  ) {}
}

/**
 * What a handler returns to send content blocks beside its output. The output is still held to
 * the envelope and the contract; the blocks are checked for their shape, and either failing ends
 * the call as `invalid_output` with nothing sent.
 */
export function withContent<O>(output: O, content: readonly ContentBlock[]): OutputWithContent<O> {
  return new OutputWithContent(output, content);
}

const requiredStrings: Readonly<Record<ContentBlock['type'], readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};

/** A handler's result split into its output and its content; a hostile result is an output like any other (the envelope refuses it). */
export function splitContent(result: unknown): { readonly output: unknown; readonly content?: unknown } {
  try {
    if (result instanceof OutputWithContent) return { output: result.output, content: result.content };
  } catch {
    // A proxy whose getPrototypeOf trap throws.
  }
  return { output: result };
}

/** A copy of the blocks as plain JSON, or why they are not content blocks. */
export function copyContent(content: unknown, limits: EnvelopeLimits): { readonly ok: true; readonly content: ContentBlock[] } | { readonly ok: false; readonly problem: string } {
  const copy = copyEnvelope(content, limits, false);
  if (!Array.isArray(copy)) return { ok: false, problem: 'the content is not a plain JSON array of content blocks' };
  for (const [index, block] of copy.entries()) {
    const problem = blockProblem(block);
    if (problem !== undefined) return { ok: false, problem: `content block ${index} ${problem}` };
  }
  return { ok: true, content: copy as ContentBlock[] };
}

function blockProblem(block: unknown): string | undefined {
  if (!isPlainObject(block)) return 'is not an object';
  const type = block['type'];
  if (typeof type !== 'string' || !Object.hasOwn(requiredStrings, type)) return `has type ${JSON.stringify(type)}; expected one of ${Object.keys(requiredStrings).join(', ')}`;
  const missing = requiredStrings[type as ContentBlock['type']].find((key) => typeof block[key] !== 'string');
  if (missing !== undefined) return `(${type}) needs a string "${missing}"`;
  if (type !== 'resource') return undefined;
  const resource = block['resource'];
  if (!isPlainObject(resource) || typeof resource['uri'] !== 'string') return '(resource) needs a "resource" object with a string "uri"';
  if (typeof resource['text'] !== 'string' && typeof resource['blob'] !== 'string') return '(resource) needs a string "text" or "blob" in its resource';
  return undefined;
}
