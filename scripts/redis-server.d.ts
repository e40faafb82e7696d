/** A private redis-server on a free port of 127.0.0.1, no persistence, its folder a temp folder (redis-server.js). */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`, for clients and for `REDIS_URL`. */
  readonly url: string;
  readonly port: number;
  /** Ends the server (SIGTERM, waiting for its exit) and removes its folder; it can be restarted. */
  stop(): Promise<void>;
  /** Starts it again on the same port (stopping it first when it runs); its data starts empty. */
  restart(): Promise<void>;
  /** Ends it abruptly (SIGKILL, waiting for its exit), as a crash would; it can be restarted. */
  kill(): Promise<void>;
}

/** Why redis-server cannot run here (`REDIS_SERVER` names another binary), or undefined when it can. */
export declare const redisServerProblem: string | undefined;

/** Starts a private redis-server on a free loopback port; throws when there is no redis-server. `config`: more of its options (`['--maxmemory-policy', 'allkeys-lru']`). */
export declare function startRedisServer(config?: readonly string[]): Promise<RedisServer>;
