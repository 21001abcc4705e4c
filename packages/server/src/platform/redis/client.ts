import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The state instances share (Redis) cannot be reached: refused connection, connection lost,
 * no answer within the command timeout, or a server that is loading or busy. Thrown instead of
 * the client's own errors so the server answers 503 `ServiceUnavailable` for it in one place;
 * `cause` keeps the client's error. An error in a command or script itself is not this: it is
 * rethrown as it is (a bug, not an outage).
 */
export class SharedStateUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SharedStateUnavailable';
  }
}

/** Default of {@link RedisConnectOptions.commandTimeoutMs}. */
export const COMMAND_TIMEOUT_MS = 500;

/** The command timeout a client was connected with (see {@link guarded}). */
const TIMEOUT = Symbol('marketlens command timeout');

/** How {@link connectRedis} connects; every field has a default suited to a request path. */
export interface RedisConnectOptions {
  /** Longest wait for one command's answer before it fails as unavailable (default 500 ms; see {@link guarded}). */
  commandTimeoutMs?: number;
  /** Longest wait for a connection to be established (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts; they back off up to it (default 2000 ms). */
  maxReconnectDelayMs?: number;
  /** Shown by `CLIENT LIST`, to tell instances and roles apart. */
  connectionName?: string;
  /** Connection errors (they repeat while Redis is down); ignored by default. */
  onError?: (err: Error) => void;
}

/**
 * A Redis client for shared state on a request path: it connects at once, and a command fails
 * at once with {@link SharedStateUnavailable} (through {@link guarded} and {@link runScript})
 * while Redis is unreachable, instead of queueing behind the outage: no offline queue, no retry
 * of a command whose connection dropped, and a command timeout for a server that stops answering.
 * The connection itself keeps retrying with capped exponential backoff and jitter, so the
 * instance recovers by itself when Redis returns. `url` is `redis://[user:password@]host:port[/db]`
 * (or `rediss://` for TLS). The client library is loaded on the first call: an instance without
 * Redis never loads it.
 */
export async function connectRedis(url: string, options: RedisConnectOptions = {}): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  const timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  const redis = new RedisClient(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A backstop only: `guarded` times commands out itself (see there); ioredis's own timer would
    // also fire when an answer is in but the event loop was held up.
    commandTimeout: 4 * timeoutMs,
    connectTimeout: options.connectTimeoutMs ?? 1000,
    connectionName: options.connectionName,
    // Never gives up: null would stop reconnecting for good.
    retryStrategy: (times) => Math.min(maxDelay, 25 * 2 ** Math.min(times, 10)) + Math.floor(Math.random() * 50),
  });
  const onError = options.onError ?? (() => {});
  // Without a listener ioredis prints every connection error to the console.
  redis.on('error', onError);
  (redis as Timed)[TIMEOUT] = timeoutMs;
  return redis;
}

type Timed = Redis & { [TIMEOUT]?: number };

/**
 * Resolves when `redis` is connected and ready for commands; rejects with
 * {@link SharedStateUnavailable} when it is not within `timeoutMs` (it keeps trying afterwards).
 */
export function whenReady(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const onEnd = () => done(new SharedStateUnavailable('Redis connection was closed'));
    const timer = setTimeout(
      () => done(new SharedStateUnavailable(`Redis not ready within ${timeoutMs} ms (status ${redis.status})`)),
      timeoutMs,
    );
    redis.on('ready', onReady);
    redis.on('end', onEnd);
  });
}

// Replies that mean the server cannot serve now, not that the command is wrong.
const UNAVAILABLE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOREPLICAS)\b/;

/** True when `err` says Redis cannot be reached or cannot serve now (see {@link SharedStateUnavailable}). */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof SharedStateUnavailable) return true;
  if (!(err instanceof Error)) return false;
  if (err.name === 'ReplyError') return UNAVAILABLE_REPLIES.test(err.message);
  return true;
}

/**
 * Awaits a command of `redis`, turning an outage into {@link SharedStateUnavailable}; other
 * failures (a wrong command, a script error) are rethrown unchanged. A command not answered
 * within the client's command timeout fails as unavailable, but only after the answers already
 * received are read: after the event loop was held up (a long GC, a starved CPU) Node runs its
 * expired timers before it reads the sockets, and a timer alone would fail a command whose answer
 * is waiting there, while Redis has done what it asked (a rate-limit unit spent, a call counted).
 */
export function guarded<T>(redis: Redis, command: Promise<T>): Promise<T> {
  const timeoutMs = (redis as Timed)[TIMEOUT] ?? COMMAND_TIMEOUT_MS;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      // setImmediate runs after the poll phase, which reads whatever answer has arrived.
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new SharedStateUnavailable(`Redis unavailable: no answer within ${timeoutMs} ms`));
      });
    }, timeoutMs);
    command.then(
      (value) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        if (err instanceof SharedStateUnavailable || !isUnavailable(err)) reject(err);
        else {
          const message = `Redis unavailable: ${err instanceof Error ? err.message : String(err)}`;
          reject(new SharedStateUnavailable(message, { cause: err }));
        }
      },
    );
  });
}

/** A Lua script and its SHA-1, as Redis caches it. */
export interface LuaScript {
  readonly lua: string;
  readonly sha: string;
}

/** A {@link LuaScript} of `lua`. */
export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * Runs `script` atomically with `keys` and `args`, in one round trip: EVALSHA, and EVAL only when
 * Redis does not hold the script yet (after its start or a SCRIPT FLUSH). The reply's strings are
 * Buffers when `buffers` is set (binary values), otherwise UTF-8 strings. Outages reject with
 * {@link SharedStateUnavailable}.
 */
export async function runScript(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number | Buffer)[],
  buffers = false,
): Promise<unknown> {
  const tail: (string | number | Buffer)[] = [...keys, ...args];
  try {
    return await guarded(
      redis,
      buffers
        ? redis.callBuffer('EVALSHA', script.sha, keys.length, ...tail)
        : redis.evalsha(script.sha, keys.length, ...tail),
    );
  } catch (err) {
    if (!(err instanceof Error) || err.name !== 'ReplyError' || !err.message.startsWith('NOSCRIPT')) throw err;
    return guarded(
      redis,
      buffers
        ? redis.callBuffer('EVAL', script.lua, keys.length, ...tail)
        : redis.eval(script.lua, keys.length, ...tail),
    );
  }
}
