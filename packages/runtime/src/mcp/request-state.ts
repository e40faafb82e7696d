import { copyEnvelope, type EnvelopeLimits } from '../core/envelope.js';
import { isJsonNumber, stringifyJson } from '../core/json.js';

/**
 * The `requestState` of MCP 2026-07-28's multi-round-trip requests, sealed: a tool that asked the
 * client for input ends its round with an `input_required` result whose state the client echoes
 * on its retry, and a client can send any string there. So the state the runtime mints is
 * encrypted and authenticated (AES-256-GCM with WebCrypto, in Node, Deno, Bun and Workers alike):
 * it names the tool, a digest of the call's arguments, the round and an expiry, and carries the
 * answers of the rounds before (they stay private to the server). Opening a state checks all of
 * that; anything else is refused with the reason, never trusted.
 */

/** How the runtime seals `requestState`. */
export interface RequestStateOptions {
  /**
   * The secret the state is sealed with: at least 32 bytes (a string counts its UTF-8 bytes), from
   * a secret store. Every server a client's retry can reach (a fleet behind a load balancer, a
   * serverless function's instances) needs the same key, or a retry that lands on another one is
   * refused as foreign. Without it each process makes a random key of its own and warns once.
   */
  readonly key?: string | Uint8Array;
  /** How long a minted state stays good, in milliseconds (default 600,000: ten minutes, time for a person to answer). */
  readonly ttlMs?: number;
}

/** Why a `requestState` was refused. */
export type RequestStateRefusal = 'malformed' | 'foreign' | 'tampered' | 'expired' | 'other_tool' | 'other_input' | 'replayed';

/** What a state that passed every check says: the round it continues and the answers given so far. */
export interface OpenedRequestState {
  /** The round that minted it: the retry is round `round + 1`. */
  readonly round: number;
  readonly answers: Readonly<Record<string, unknown>>;
  /** Names this minted state (its random nonce): what a store claims once, so that the state continues one retry. */
  readonly id: string;
  /** When it expires, ms since the epoch. */
  readonly expiresAt: number;
}

export type OpenResult = { readonly ok: true; readonly state: OpenedRequestState } | { readonly ok: false; readonly reason: RequestStateRefusal; readonly message: string };

/** What a state is bound to: the tool and the call's arguments. */
export interface RequestStateBinding {
  readonly tool: string;
  readonly arguments: unknown;
}

export interface RequestStateSeal {
  seal(binding: RequestStateBinding, round: number, answers: Readonly<Record<string, unknown>>): Promise<string>;
  open(token: unknown, binding: RequestStateBinding): Promise<OpenResult>;
}

const defaultTtlMs = 600_000;
/** A state longer than this is refused before any work: the answers of a few rounds fit many times over. No longer one is minted (input-rounds.ts). */
export const maxStateLength = 1_048_576;
const format = 'jtc1';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Made once per process and only when a server seals without a key of its own. */
let processKey: Uint8Array | undefined;

/**
 * Seals and opens states with the key of `options` (checked at once: a RangeError for a short key
 * or a bad ttlMs), or the process's random key. `limits` bound the walk over the arguments that
 * are digested; `now` is for tests.
 */
export function requestStateSeal(options: RequestStateOptions = {}, limits: EnvelopeLimits, now: () => number = Date.now): RequestStateSeal {
  const { key, ttlMs = defaultTtlMs } = options;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`requestState.ttlMs must be a whole number of milliseconds of at least 1, got ${String(ttlMs)}`);
  const material = key === undefined ? undefined : keyBytes(key);
  let keys: Promise<SealKeys> | undefined;
  const sealKeys = (): Promise<SealKeys> => (keys ??= derivedKeys(material ?? randomProcessKey()));
  return {
    async seal(binding, round, answers) {
      const { aead, id } = await sealKeys();
      const payload: SealedPayload = { t: binding.tool, i: await argumentsDigest(binding.arguments, limits), r: round, e: now() + ttlMs, a: answers };
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(`${format}.${id}`) }, aead, encoder.encode(JSON.stringify(payload))));
      const body = new Uint8Array(iv.length + sealed.length);
      body.set(iv);
      body.set(sealed, iv.length);
      return `${format}.${id}.${base64url(body)}`;
    },
    async open(token, binding) {
      const refuse = (reason: RequestStateRefusal, message: string): OpenResult => ({ ok: false, reason, message });
      if (typeof token !== 'string' || token.length > maxStateLength) return refuse('malformed', typeof token === 'string' ? `it is longer than ${maxStateLength} characters` : `it is a ${token === null ? 'null' : typeof token}, not a string`);
      const [prefix, id, body, ...rest] = token.split('.');
      const bytes = body === undefined || rest.length > 0 ? undefined : fromBase64url(body);
      if (prefix !== format || id === undefined || bytes === undefined || bytes.length < 12 + 16) return refuse('malformed', 'it is not a state this runtime minted');
      const keys = await sealKeys();
      if (id !== keys.id) return refuse('foreign', 'it was sealed with another key (another server, or one whose key changed): a fleet must share one key');
      let payload: unknown;
      try {
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(`${format}.${id}`) }, keys.aead, bytes.subarray(12));
        payload = JSON.parse(decoder.decode(plain));
      } catch {
        return refuse('tampered', 'it fails its integrity check: it was changed after it was minted');
      }
      if (!isPayload(payload)) return refuse('tampered', 'it fails its integrity check: it was changed after it was minted');
      if (payload.e <= now()) return refuse('expired', `it expired ${new Date(payload.e).toISOString()}: start the call again without requestState`);
      if (payload.t !== binding.tool) return refuse('other_tool', `it was minted for another tool: a state continues only the call it came from`);
      if (payload.i !== (await argumentsDigest(binding.arguments, limits))) return refuse('other_input', 'it was minted for other arguments: a retry sends the arguments of the first round; with new arguments it is a new call, without requestState');
      return { ok: true, state: { round: payload.r, answers: payload.a, id: base64url(bytes.subarray(0, 12)), expiresAt: payload.e } };
    },
  };
}

interface SealedPayload {
  /** The tool. */
  readonly t: string;
  /** The arguments' digest. */
  readonly i: string;
  /** The round that minted it. */
  readonly r: number;
  /** Expires at, ms since the epoch. */
  readonly e: number;
  /** The answers so far, by key. */
  readonly a: Readonly<Record<string, unknown>>;
}

function isPayload(value: unknown): value is SealedPayload {
  if (typeof value !== 'object' || value === null) return false;
  const { t, i, r, e, a } = value as Record<string, unknown>;
  return typeof t === 'string' && typeof i === 'string' && Number.isSafeInteger(r) && (r as number) >= 1 && typeof e === 'number' && typeof a === 'object' && a !== null && !Array.isArray(a);
}

interface SealKeys {
  readonly aead: Awaited<ReturnType<typeof crypto.subtle.deriveKey>>;
  /** Names the key without revealing it: a state sealed with another key is foreign, not tampered. */
  readonly id: string;
}

/** Keys derived so far, by their secret: hosts that make a seal per request (SDK v2's per-request handlers) derive each key once. */
const derivedByKey = new Map<string, Promise<SealKeys>>();
/** A server rotating its key keeps only its latest few. */
const maxDerivedKeys = 8;

function derivedKeys(material: Uint8Array): Promise<SealKeys> {
  const name = Array.from(material, (byte) => byte.toString(16).padStart(2, '0')).join('');
  let keys = derivedByKey.get(name);
  if (keys === undefined) {
    keys = deriveKeys(material);
    if (derivedByKey.size >= maxDerivedKeys) derivedByKey.delete(derivedByKey.keys().next().value as string);
    derivedByKey.set(name, keys);
  }
  return keys;
}

async function deriveKeys(material: Uint8Array): Promise<SealKeys> {
  const base = await crypto.subtle.importKey('raw', material as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveKey', 'deriveBits']);
  const hkdf = (info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(`json-tool-contracts requestState ${info}`) });
  const aead = await crypto.subtle.deriveKey(hkdf('aead'), base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  const id = base64url(new Uint8Array(await crypto.subtle.deriveBits(hkdf('key id'), base, 48)));
  return { aead, id };
}

function keyBytes(key: string | Uint8Array): Uint8Array {
  const bytes = typeof key === 'string' ? encoder.encode(key) : key instanceof Uint8Array ? key : undefined;
  if (bytes === undefined) throw new RangeError(`requestState.key must be a string or a Uint8Array, got ${typeof key}`);
  if (bytes.length < 32) throw new RangeError(`requestState.key must hold at least 32 bytes (256 bits) of secret, got ${bytes.length}`);
  return new Uint8Array(bytes);
}

function randomProcessKey(): Uint8Array {
  if (processKey === undefined) {
    processKey = crypto.getRandomValues(new Uint8Array(32));
    const warning = 'json-tool-contracts: MCP requestState is sealed with a random key of this process (no requestState.key given); a retry that reaches another process, or this one after a restart, is refused. Give every server of a fleet the same key.';
    const process = (globalThis as { process?: { emitWarning?: (message: string, type: string) => void } }).process;
    if (typeof process?.emitWarning === 'function') process.emitWarning(warning, 'RequestStateKeyWarning');
    else globalThis.console?.warn(warning);
  }
  return processKey;
}

/** SHA-256 of the arguments as canonical JSON (keys sorted), so a retry that orders its keys otherwise still matches. */
async function argumentsDigest(args: unknown, limits: EnvelopeLimits): Promise<string> {
  const copy = copyEnvelope(args ?? {}, limits, true);
  // Arguments that are no JSON envelope get a digest no state carries; the runtime refuses them anyway.
  if (copy === undefined) return 'not-json';
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(copy)))));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null && !isJsonNumber(value)) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return stringifyJson(value);
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
