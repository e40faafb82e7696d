import type { RuntimeStore, StoredCall, StoredCallState } from './store.js';

/**
 * The runtime's store on Redis (`@json-tool-contracts/runtime/redis`), for a fleet of replicas:
 * `new CapabilityRuntime({ store: redisStore(client) })` on every replica, one Redis for all.
 * Every budgeted call costs one round trip (a Lua script that checks and takes a call of the budget
 * atomically, so the fleet completes exactly the budget); every key lives under one prefix and
 * expires. The client is yours, taken structurally (node-redis's `sendCommand`, ioredis's `call`),
 * so the runtime depends on neither; `connectRedisStore` makes one with node-redis (`redis`, an
 * optional peer) set up to fail fast.
 *
 * Keys (`prefix` defaults to `jtc:`):
 * - `<prefix>budget:<tool>`: the calls of the tool's budget taken, expiring `budgetTtlMs` after the
 *   first (so a fleet's budget counts the calls of a window of that length, a day by default);
 * - `<prefix>call:<callId>`: a deferred call (a hash: state, lease, the call as JSON), expiring when
 *   the call does (the runtime's `deferredTtlMs`, or the call's `ttlMs`);
 * - `<prefix>once:<key>`: a claimed `requestState`, expiring when the state does.
 */

/** A Redis client as the store needs it: node-redis (v4 to v6) has `sendCommand`, ioredis has `call`. */
export type RedisClientLike = { sendCommand(args: string[]): Promise<unknown> } | { call(command: string, ...args: string[]): Promise<unknown> };

export interface RedisStoreOptions {
  /** Put before every key (default `jtc:`): one Redis can hold several fleets. On Redis Cluster use a hash tag, `{jtc}:`, so that a script's keys share a slot. */
  readonly prefix?: string;
  /** How long a budget's count lives from its first reservation, in milliseconds (default 86,400,000: a day). */
  readonly budgetTtlMs?: number;
  /** A command not answered within this many milliseconds fails (default 1,000): the call is denied with `store_unavailable`, never left hanging. */
  readonly commandTimeoutMs?: number;
}

/** Lua that returns 0 where the budget at `key` has `limit` calls taken, and else takes one; the count expires `ttl` ms after its first. */
const takeFromBudget = (key: string, limit: string, ttl: string): string => `local used = tonumber(redis.call('GET', ${key}) or '0')
if used >= tonumber(${limit}) then return 0 end
redis.call('INCR', ${key})
if redis.call('PTTL', ${key}) < 0 then redis.call('PEXPIRE', ${key}, ${ttl}) end`;

const reserveScript = `
${takeFromBudget('KEYS[1]', 'ARGV[1]', 'ARGV[2]')}
return 1`;

const releaseScript = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** KEYS: call, budget. ARGV: state, lease, call JSON, expires at, budget ('' for none), budget TTL. */
const openScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('call id already stored') end
if ARGV[5] ~= '' then
${takeFromBudget('KEYS[2]', 'ARGV[5]', 'ARGV[6]')}
end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'lease', ARGV[2], 'call', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`;

/** KEYS: call. ARGV: state, lease, call JSON, expires at, then the states it may be replaced from. */
const replaceScript = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return 0 end
for i = 5, #ARGV do
  if state == ARGV[i] then
    redis.call('HSET', KEYS[1], 'state', ARGV[1], 'lease', ARGV[2], 'call', ARGV[3])
    redis.call('PEXPIREAT', KEYS[1], ARGV[4])
    return 1
  end
end
return 0`;

const renewScript = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return false end
if state == 'running' then redis.call('HSET', KEYS[1], 'lease', ARGV[1]) end
return state`;

const states: ReadonlySet<string> = new Set<StoredCallState>(['running', 'pending', 'done']);

/** The store on a client you made (and connected); `options` are checked at once (a RangeError). */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): RuntimeStore {
  const { prefix = 'jtc:', budgetTtlMs = 86_400_000, commandTimeoutMs = 1_000 } = options;
  if (typeof prefix !== 'string') throw new RangeError('prefix must be a string');
  for (const [key, value] of Object.entries({ budgetTtlMs, commandTimeoutMs })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${key} must be a whole number of milliseconds of at least 1, got ${String(value)}`);
  }
  const send = sender(client, commandTimeoutMs);
  const script = scriptRunner(send);
  const budgetKey = (tool: string) => `${prefix}budget:${tool}`;
  const callKey = (callId: string) => `${prefix}call:${callId}`;
  const fields = (call: StoredCall) => [call.state, call.leaseUntil === undefined ? '' : String(call.leaseUntil), JSON.stringify(call), String(call.expiresAt)];
  return {
    reserve: async (tool, budget) => (await script(reserveScript, [budgetKey(tool)], [String(budget), String(budgetTtlMs)])) === 1,
    async release(tool) {
      await script(releaseScript, [budgetKey(tool)], []);
    },
    async used(tool) {
      const reply = await send(['GET', budgetKey(tool)]);
      return reply === null ? 0 : Number(text(reply));
    },
    openCall: async (call, budget) => (await script(openScript, [callKey(call.callId), budgetKey(call.tool)], [...fields(call), budget === undefined ? '' : String(budget), String(budgetTtlMs)])) === 1,
    async readCall(callId) {
      const reply = await send(['HMGET', callKey(callId), 'state', 'lease', 'call']);
      if (!Array.isArray(reply) || reply.length !== 3) throw new Error(`unexpected reply from Redis to HMGET: ${describe(reply)}`);
      const [state, lease, json] = reply as unknown[];
      if (state === null || json === null) return undefined;
      const call = JSON.parse(text(json)) as StoredCall;
      const leaseText = text(lease ?? '');
      return { ...call, state: storedState(state), ...(leaseText === '' ? {} : { leaseUntil: Number(leaseText) }) };
    },
    replaceCall: async (next, from) => (await script(replaceScript, [callKey(next.callId)], [...fields(next), ...from])) === 1,
    async renewLease(callId, leaseUntil) {
      const reply = await script(renewScript, [callKey(callId)], [String(leaseUntil)]);
      return reply === null ? undefined : storedState(reply);
    },
    async claimOnce(key, expiresAt) {
      // PXAT must lie ahead: a claim that is already due still counts once.
      const reply = await send(['SET', `${prefix}once:${key}`, '1', 'NX', 'PXAT', String(Math.max(expiresAt, Date.now() + 1))]);
      return reply !== null;
    },
  };
}

type Send = (args: string[]) => Promise<unknown>;

/** Every command bounded by the timeout; a client's own error passes as it is, with its message. */
function sender(client: RedisClientLike, timeoutMs: number): Send {
  const raw: Send =
    'sendCommand' in client && typeof client.sendCommand === 'function'
      ? (args) => client.sendCommand(args)
      : 'call' in client && typeof client.call === 'function'
        ? (args) => client.call(args[0]!, ...args.slice(1))
        : () => Promise.reject(new Error('the Redis client has neither sendCommand (node-redis) nor call (ioredis)'));
  return (args) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer ${args[0]} within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([raw(args), timeout]).finally(() => clearTimeout(timer));
  };
}

/** Runs a script by its SHA-1 (one round trip once Redis knows it), sending it whole when Redis does not (NOSCRIPT). */
function scriptRunner(send: Send): (source: string, keys: string[], args: string[]) => Promise<unknown> {
  const hashes = new Map<string, Promise<string>>();
  return async (source, keys, args) => {
    let hash = hashes.get(source);
    if (hash === undefined) {
      hash = sha1(source);
      hashes.set(source, hash);
    }
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await send(['EVALSHA', await hash, ...tail]);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return send(['EVAL', source, ...tail]);
    }
  };
}

async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function text(reply: unknown): string {
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  throw new Error(`unexpected reply from Redis: ${describe(reply)}`);
}

function storedState(reply: unknown): StoredCallState {
  const state = text(reply);
  if (!states.has(state)) throw new Error(`unexpected call state from Redis: ${describe(state)}`);
  return state as StoredCallState;
}

function describe(reply: unknown): string {
  try {
    return JSON.stringify(reply)?.slice(0, 200) ?? String(reply);
  } catch {
    return typeof reply;
  }
}

export interface ConnectRedisStoreOptions extends RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS (default `REDIS_URL`, then `redis://127.0.0.1:6379`). */
  readonly url?: string;
  /** How long one connection attempt may take, in milliseconds (default 2,000). */
  readonly connectTimeoutMs?: number;
  /** Hears the client's connection errors (it goes on reconnecting meanwhile, every 100 ms to 2 s); default: none, the calls' `store_unavailable` denials say it. */
  readonly onError?: (error: Error) => void;
}

/** A store with the node-redis client it made. */
export interface RedisStoreConnection {
  readonly store: RuntimeStore;
  /** The node-redis client, for what else the server keeps in Redis. */
  readonly client: unknown;
  /** Closes the connection: calls through the store are denied with `store_unavailable` after it. */
  close(): Promise<void>;
}

/**
 * Connects node-redis (`redis`, installed beside the runtime) for the store, set up to fail fast:
 * commands are refused at once while the connection is down (no offline queue: a reservation is
 * never sent late), each connection attempt is bounded, and the client reconnects on its own (a
 * replica starting while Redis is away serves as soon as Redis is back). Resolves once the first
 * connection attempt has succeeded or failed; calls made before Redis answers are denied.
 */
export async function connectRedisStore(options: ConnectRedisStoreOptions = {}): Promise<RedisStoreConnection> {
  const { url = readEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379', connectTimeoutMs = 2_000, onError, ...storeOptions } = options;
  let redis: { createClient(options: Record<string, unknown>): NodeRedisClient };
  try {
    redis = (await import('redis' as string)) as typeof redis;
  } catch {
    throw new Error('connectRedisStore needs node-redis: npm install redis (or pass your own client to redisStore)');
  }
  const client = redis.createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000) },
  });
  // Without a listener node-redis's error event would end the process.
  client.on('error', (error: Error) => onError?.(error));
  const store = redisStore(client, storeOptions);
  await Promise.race([client.connect().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, connectTimeoutMs).unref?.())]);
  return {
    store,
    client,
    async close() {
      await client.close?.();
    },
  };
}

interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  connect(): Promise<unknown>;
  close?(): Promise<unknown>;
}

function readEnv(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}
