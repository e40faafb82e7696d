import { isStoredCallState, maxHeard, readStoredCall, unreadableRecord, type AnswerOutcome, type RuntimeStore } from '../core/store.js';

/**
 * The runtime's store on Redis (`@json-tool-contracts/runtime/redis`), for a fleet of replicas:
 * `new CapabilityRuntime({ store: redisStore(client) })` on every replica, one Redis for all.
 * Every budgeted call costs one round trip (a Lua script that checks and takes a call of the budget
 * atomically, so the fleet completes exactly the budget); every key lives under one prefix and
 * expires. The client is yours, taken structurally (node-redis's `sendCommand`, ioredis's `call`),
 * so the runtime depends on neither; `connectRedisStore` makes one with node-redis (`redis`, an
 * optional peer) set up to fail fast. Redis must never evict the store's keys (a budget's count
 * evicted is a budget run open): the store reads Redis's `maxmemory-policy` before its first command
 * and every ten seconds after, and refuses every command while it is anything but `noeviction`.
 *
 * Keys (`prefix` defaults to `jtc:`):
 * - `<prefix>budget:<tool>`: the calls of the tool's budget taken, expiring `budgetTtlMs` after the
 *   first (so a fleet's budget counts the calls of a window of that length, a day by default);
 * - `<prefix>call:<callId>`: a deferred call (a hash: its state, owner and record as JSON, and the
 *   questions its handler asked and their answers), expiring when the call does (the runtime's
 *   `deferredTtlMs`, or the call's `ttlMs`);
 * - `<prefix>lease:<replicaId>`: a replica's lease on the calls whose handlers it runs, expiring
 *   `leaseMs` after the replica last renewed it;
 * - `<prefix>inbox:<replicaId>`: a stream of the ids of a replica's calls that other replicas
 *   changed since it last heard, expiring with the latest of those calls;
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
  /**
   * Reads Redis's `maxmemory-policy` (`INFO memory`) and refuses every command unless it is
   * `noeviction` (default true). False only for a Redis that hides `INFO` and that you know never evicts.
   */
  readonly checkEvictionPolicy?: boolean;
}

/** Lua that returns 0 where the budget at `key` has `limit` calls taken, and else takes one; the count expires `ttl` ms after its first. */
const takeFromBudget = (key: string, limit: string, ttl: string): string => `local used = tonumber(redis.call('GET', ${key}) or '0')
if used >= tonumber(${limit}) then return 0 end
redis.call('INCR', ${key})
if redis.call('PTTL', ${key}) < 0 then redis.call('PEXPIRE', ${key}, ${ttl}) end`;

/** Lua that tells a call's owner, in its inbox, that another replica (`by`) changed the call; the inbox is kept at least as long as the call. */
const notifyOwner = (call: string, callId: string, by: string, prefix: string): string => `local owner = redis.call('HGET', ${call}, 'owner')
if owner and owner ~= ${by} then
  local inbox = ${prefix} .. 'inbox:' .. owner
  redis.call('XADD', inbox, '*', 'call', ${callId})
  local kept = redis.call('PTTL', ${call})
  if kept > 0 and redis.call('PTTL', inbox) < kept then redis.call('PEXPIRE', inbox, kept) end
end`;

const reserveScript = `
${takeFromBudget('KEYS[1]', 'ARGV[1]', 'ARGV[2]')}
return 1`;

const releaseScript = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** KEYS: call, budget, owner's lease. ARGV: state, call JSON, expires at, owner ('' for none), budget ('' for none), budget TTL, lease ms ('' for none). */
const openScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('call id already stored') end
if ARGV[5] ~= '' then
${takeFromBudget('KEYS[2]', 'ARGV[5]', 'ARGV[6]')}
end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'call', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'owner', ARGV[4]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
if ARGV[7] ~= '' then redis.call('SET', KEYS[3], '1', 'PX', ARGV[7]) end
return 1`;

/** KEYS: call. ARGV: prefix. The hash's fields, and whether the owner of a running call holds its lease. */
const readScript = `
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then return false end
local state, owner
for i = 1, #fields, 2 do
  if fields[i] == 'state' then state = fields[i + 1] elseif fields[i] == 'owner' then owner = fields[i + 1] end
end
local lease = 0
if state == 'running' and owner then lease = redis.call('EXISTS', ARGV[1] .. 'lease:' .. owner) end
return {fields, lease}`;

/** KEYS: call, budget. ARGV: state, call JSON, expires at, release ('1' or ''), by, prefix, call id, then the states it may be replaced from. */
const replaceScript = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return 0 end
for i = 8, #ARGV do
  if state == ARGV[i] then
    redis.call('HSET', KEYS[1], 'state', ARGV[1], 'call', ARGV[2])
    redis.call('PEXPIREAT', KEYS[1], ARGV[3])
    if ARGV[4] == '1' and tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
${notifyOwner('KEYS[1]', 'ARGV[7]', 'ARGV[5]', 'ARGV[6]')}
    return 1
  end
end
return 0`;

/** KEYS: call. ARGV: key, question JSON, now. */
const askScript = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'q:' .. ARGV[1], ARGV[2], 'updated', ARGV[3])
return 1`;

/** KEYS: call. ARGV: by, prefix, now, call id, then each key and its answer. The state, then each answer's outcome. */
const answerScript = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return false end
local out = {state}
local delivered = false
for i = 5, #ARGV, 2 do
  local key = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], 'a:' .. key) == 1 then
    out[#out + 1] = 'answered'
  elseif state == 'running' and redis.call('HEXISTS', KEYS[1], 'q:' .. key) == 1 then
    redis.call('HSET', KEYS[1], 'a:' .. key, ARGV[i + 1])
    delivered = true
    out[#out + 1] = 'delivered'
  else
    out[#out + 1] = 'not-open'
  end
end
if delivered then
  redis.call('HSET', KEYS[1], 'updated', ARGV[3])
${notifyOwner('KEYS[1]', 'ARGV[4]', 'ARGV[1]', 'ARGV[2]')}
end
return out`;

/** KEYS: lease, inbox (a stream). ARGV: lease ms, the id of the last change heard ('' for none), most changes to answer. Each change's id, then its call's. */
const keepLeaseScript = `
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
local from = '-'
if ARGV[2] ~= '' then
  redis.call('XTRIM', KEYS[2], 'MINID', ARGV[2])
  from = '(' .. ARGV[2]
end
local out = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], from, '+', 'COUNT', ARGV[3])) do
  out[#out + 1] = entry[1]
  out[#out + 1] = entry[2][2]
end
return out`;

/** KEYS: the claim. ARGV: the token it was claimed with. */
const unclaimScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

const answerOutcomes: ReadonlySet<string> = new Set<AnswerOutcome>(['delivered', 'answered', 'not-open']);

/** The store on a client you made (and connected); `options` are checked at once (a RangeError). */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): RuntimeStore {
  const { prefix = 'jtc:', budgetTtlMs = 86_400_000, commandTimeoutMs = 1_000, checkEvictionPolicy = true } = options;
  if (typeof prefix !== 'string') throw new RangeError('prefix must be a string');
  if (typeof checkEvictionPolicy !== 'boolean') throw new RangeError('checkEvictionPolicy must be true or false');
  for (const [key, value] of Object.entries({ budgetTtlMs, commandTimeoutMs })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${key} must be a whole number of milliseconds of at least 1, got ${String(value)}`);
  }
  const timed = sender(client, commandTimeoutMs);
  const send = checkEvictionPolicy ? refusingEviction(timed) : timed;
  const script = scriptRunner(send);
  const budgetKey = (tool: string) => `${prefix}budget:${tool}`;
  const callKey = (callId: string) => `${prefix}call:${callId}`;
  const leaseKey = (replicaId: string) => `${prefix}lease:${replicaId}`;
  /** A script's reply on a call's key; another client's value there (a string, a list) is no call of ours. */
  const onCall = <T>(callId: string, reply: Promise<T>): Promise<T> =>
    reply.catch((error: unknown) => {
      if (error instanceof Error && error.message.includes('WRONGTYPE')) throw unreadableRecord(callId, `${callKey(callId)} holds another kind of value than a call's hash`);
      throw error;
    });
  return {
    reserve: async (tool, budget) => (await script(reserveScript, [budgetKey(tool)], [String(budget), String(budgetTtlMs)])) === 1,
    async release(tool) {
      await script(releaseScript, [budgetKey(tool)], []);
    },
    async used(tool) {
      const reply = await send(['GET', budgetKey(tool)]);
      if (reply === null) return 0;
      const count = Number(text(reply));
      if (!Number.isSafeInteger(count) || count < 0) throw new Error(`${budgetKey(tool)} holds ${describe(text(reply))}, not a count of calls`);
      return count;
    },
    async openCall(call, budget, leaseMs) {
      const args = [call.state, JSON.stringify(call), String(call.expiresAt), call.owner ?? '', budget === undefined ? '' : String(budget), String(budgetTtlMs), leaseMs === undefined ? '' : String(leaseMs)];
      return (await script(openScript, [callKey(call.callId), budgetKey(call.tool), leaseKey(call.owner ?? '')], args)) === 1;
    },
    async readCall(callId) {
      const reply = await onCall(callId, script(readScript, [callKey(callId)], [prefix]));
      if (reply === null) return undefined;
      if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[0])) throw new Error(`unexpected reply from Redis to a call's read: ${describe(reply)}`);
      const [flat, lease] = reply as [unknown[], unknown];
      const fields = new Map<string, string>();
      for (let i = 0; i + 1 < flat.length; i += 2) fields.set(text(flat[i]), text(flat[i + 1]));
      const json = fields.get('call');
      if (json === undefined) throw unreadableRecord(callId, `${callKey(callId)} holds no record`);
      const questions = new Map<string, string>();
      const answers = new Map<string, string>();
      for (const [field, value] of fields) {
        if (field.startsWith('q:')) questions.set(field.slice(2), value);
        else if (field.startsWith('a:')) answers.set(field.slice(2), value);
      }
      const updated = fields.get('updated');
      return { call: readStoredCall(callId, json, fields.get('state')), leaseHeld: lease === 1, questions, answers, updatedAt: updated === undefined ? undefined : Number(updated) };
    },
    async replaceCall(next, from, replace = {}) {
      const args = [next.state, JSON.stringify(next), String(next.expiresAt), replace.release === true ? '1' : '', replace.by ?? '', prefix, next.callId, ...from];
      return (await onCall(next.callId, script(replaceScript, [callKey(next.callId), budgetKey(next.tool)], args))) === 1;
    },
    askCall: async (callId, key, question) => (await onCall(callId, script(askScript, [callKey(callId)], [key, question, String(Date.now())]))) === 1,
    async answerCall(callId, answers, by) {
      const args = [by, prefix, String(Date.now()), callId, ...[...answers].flat()];
      const reply = await onCall(callId, script(answerScript, [callKey(callId)], args));
      if (reply === null) return undefined;
      if (!Array.isArray(reply) || reply.length !== answers.size + 1) throw new Error(`unexpected reply from Redis to answers: ${describe(reply)}`);
      const [state, ...outcomes] = reply.map((part: unknown) => text(part));
      if (!isStoredCallState(state) || !outcomes.every((outcome) => answerOutcomes.has(outcome))) throw new Error(`unexpected reply from Redis to answers: ${describe(reply)}`);
      return { state, outcomes: outcomes as AnswerOutcome[] };
    },
    async keepLease(replicaId, leaseMs, since) {
      const reply = await script(keepLeaseScript, [leaseKey(replicaId), `${prefix}inbox:${replicaId}`], [String(leaseMs), since ?? '', String(maxHeard)]);
      if (!Array.isArray(reply) || reply.length % 2 !== 0) throw new Error(`unexpected reply from Redis to a lease's renewal: ${describe(reply)}`);
      const parts = reply.map((part: unknown) => text(part));
      const changed = parts.filter((_, index) => index % 2 === 1);
      return { changed, mark: parts.length === 0 ? since : parts.at(-2) };
    },
    async claimOnce(key, expiresAt) {
      const claim = `${prefix}once:${key}`;
      // A token of this claim alone, so that a claim whose answer was lost can be given back and nobody else's.
      const token = randomToken();
      try {
        // PXAT must lie ahead: a claim that is already due still counts once.
        return (await send(['SET', claim, token, 'NX', 'PXAT', String(Math.max(expiresAt, Date.now() + 1))])) !== null;
      } catch (error) {
        giveBackClaim(script, claim, token, expiresAt);
        throw error;
      }
    },
  };
}

/**
 * A claim whose answer was lost may stand in Redis with nothing to show for it (the retry it was for
 * was refused): it is given back once Redis answers, tried again with growing pauses until it would
 * have expired anyway. Sent on the connection that sent the claim, after it, so it lands after it.
 */
function giveBackClaim(script: ScriptRunner, claim: string, token: string, expiresAt: number, pauseMs = 250): void {
  script(unclaimScript, [claim], [token]).catch(() => {
    if (Date.now() + pauseMs >= expiresAt) return;
    setTimeout(() => giveBackClaim(script, claim, token, expiresAt, pauseMs * 2), pauseMs).unref?.();
  });
}

/** How often the store reads Redis's eviction policy again, in milliseconds. */
const policyRecheckMs = 10_000;

/**
 * Refuses every command while Redis may evict the store's keys: read from `INFO memory` before the
 * first command (which waits for it) and again every ten seconds (commands meanwhile go by the last
 * reading). Anything but `noeviction` lets Redis drop a budget's count or a once-only claim under
 * memory pressure (another application's keys fill it), which would run the budget open.
 */
function refusingEviction(send: Send): Send {
  let problem: string | undefined;
  let readAt: number | undefined;
  let reading: Promise<void> | undefined;
  const read = (): Promise<void> =>
    (reading ??= send(['INFO', 'memory'])
      .then((info) => {
        problem = evictionProblem(text(info));
        readAt = Date.now();
      })
      .finally(() => {
        reading = undefined;
      }));
  return async (args) => {
    // Until it has been read once, a reading that fails (Redis away) fails the command with it; later ones leave the last reading standing.
    if (readAt === undefined) await read();
    else if (Date.now() - readAt >= policyRecheckMs) read().catch(() => undefined);
    if (problem !== undefined) throw new Error(problem);
    return send(args);
  };
}

/** Why a Redis whose `INFO memory` reads so may lose the store's keys; undefined for `noeviction`. */
export function evictionProblem(info: string): string | undefined {
  const policy = /^maxmemory_policy:([^\r\n]*)/m.exec(info)?.[1]?.trim();
  if (policy === 'noeviction') return undefined;
  const fix = 'set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, and in redis.conf), or give the fleet a Redis of its own';
  if (policy === undefined) return `Redis's INFO does not say its maxmemory-policy, and the store needs noeviction: ${fix}; if it is noeviction, pass checkEvictionPolicy: false`;
  return `Redis's maxmemory-policy is ${policy}, which may evict the store's keys (a budget's count, a once-only claim) and so let calls past their budget; the store needs noeviction: ${fix}`;
}

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
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

type ScriptRunner = (source: string, keys: string[], args: string[]) => Promise<unknown>;

/** Runs a script by its SHA-1 (one round trip once Redis knows it), sending it whole when Redis does not (NOSCRIPT). */
function scriptRunner(send: Send): ScriptRunner {
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
