/**
 * How an event reaches every stream: in one process straight into the hub; with Redis through one
 * Redis stream (`XADD`), which every instance reads in order (`XREAD`) into its own hub, so an
 * event published on any instance reaches every stream on every instance once, with the same id
 * everywhere (a client may resume on another instance). Work that must be done once across the
 * cluster (a candle's analysis, a second's price) is claimed first (`SET NX PX`).
 *
 * Redis away: the fan-out across instances stops with one logged warning, and each instance
 * delivers what it publishes to its own streams until Redis answers again (a second warning).
 */
import type { Redis } from 'ioredis';
import { guarded, isUnavailable, luaScript, runScript, whenReady } from '../platform/redis/client.js';
import type { LiveEventType, LiveHub } from './hub.js';

/** A cluster-wide once-only key: only the first to claim it within `ttlMs` goes on. */
export interface Claim {
  key: string;
  ttlMs: number;
}

/** What the live engine publishes through. */
export interface LiveTransport {
  /** Publishes an event to every instance once; with `claim`, only if this instance wins it. Resolves whether it did. */
  publish(type: LiveEventType, topic: string, json: string, claim?: Claim): Promise<boolean>;
  /** Claims work to be done once across the cluster (always won in one process, or while Redis is away). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Starts delivering the cluster's events into the hub (while streams are open here). Returns,
   * while the reader is finding its place in the cluster's log, when it has (a stream attaches
   * then, so that it misses nothing published after it opened); undefined when it already has.
   */
  start(): Promise<void> | undefined;
  /** Stops it; resolves once nothing of it is left running. */
  stop(): Promise<void>;
  /** Whether a reader is running (tests count it among what an idle instance holds). */
  running(): boolean;
}

/** Everything in this process. */
export function localTransport(hub: LiveHub): LiveTransport {
  return {
    publish(type, topic, json) {
      hub.append(type, topic, json);
      return Promise.resolve(true);
    },
    claim: () => Promise.resolve(true),
    start: () => undefined,
    stop: () => Promise.resolve(),
    running: () => false,
  };
}

/** The Redis stream every instance reads. */
export const LIVE_STREAM_KEY = 'marketlens:live';
const CLAIM_PREFIX = 'marketlens:live:claim:';

// KEYS[1] the stream, KEYS[2] the claim ('' for none); ARGV: min id kept, ttl, type, topic, data.
const PUBLISH = luaScript(`
if KEYS[2] ~= '' then
  if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[2]) then return false end
end
return redis.call('XADD', KEYS[1], 'MINID', '~', ARGV[1], '*', 't', ARGV[3], 'p', ARGV[4], 'd', ARGV[5])
`);

/** How the Redis transport behaves. */
export interface RedisTransportOptions {
  /** Events older than this are trimmed from the Redis stream. */
  retentionMs: number;
  warn: (message: string) => void;
  /** Longest block of one `XREAD` (ms). */
  blockMs?: number;
}

/** `XREAD`'s reply as bytes: per stream, its entries, each an id and its fields and values. */
type StreamReply = [Buffer, [Buffer, Buffer[]][]][] | null;

/** The one-letter field names of an entry (`t` type, `p` topic, `d` data), as their byte. */
const FIELD_T = 0x74;
const FIELD_P = 0x70;
const FIELD_D = 0x64;

/**
 * The cluster transport over `redis` (the shared connection publishes; a duplicate connection,
 * made while streams are open here, reads).
 */
export function redisTransport(redis: Redis, hub: LiveHub, options: RedisTransportOptions): LiveTransport {
  const blockMs = options.blockMs ?? 1_000;
  let degraded = false;
  let reader: Redis | null = null;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  let pause: ReturnType<typeof setTimeout> | null = null;
  /** Resolves once the running reader has its place in the log (or found Redis away); null when it has. */
  let positioning: { promise: Promise<void>; resolve: () => void } | null = null;
  const positioned = () => {
    const p = positioning;
    positioning = null;
    p?.resolve();
  };

  const lost = (err: unknown) => {
    if (degraded) return;
    degraded = true;
    options.warn(
      `Redis unreachable (${err instanceof Error ? err.message : String(err)}): events reach this instance's streams only until it is back`,
    );
  };
  const back = () => {
    if (!degraded) return;
    degraded = false;
    options.warn('Redis is back: events reach every instance again');
  };

  /** Waits `ms` (cut short by {@link stop}). */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      pause = setTimeout(() => {
        pause = null;
        resolve();
      }, ms);
    });

  /**
   * Reads the cluster's events into the hub from `position` on: the newest id when the reader was
   * started, asked on the publishing connection, so that every event this instance publishes
   * after a stream opened here comes after it (one connection keeps its commands in order).
   */
  const read = async (conn: Redis, position: Promise<string>) => {
    let last: string | null = null;
    while (reader === conn) {
      try {
        if (last === null) {
          last = await position;
          hub.joined(last);
          positioned();
        }
        if (conn.status !== 'ready') await whenReady(conn, blockMs + 2_000);
        // As bytes: the data (an analysis is some 14 KB of JSON) goes into each event's frame as
        // Redis sent it, never decoded to a string and encoded back.
        const reply = (await conn.xreadBuffer(
          'COUNT',
          1000,
          'BLOCK',
          blockMs,
          'STREAMS',
          LIVE_STREAM_KEY,
          last,
        )) as StreamReply;
        back();
        for (const [, entries] of reply ?? []) {
          for (const [rawId, fields] of entries) {
            const id = rawId.toString('latin1');
            last = id;
            let type: string | undefined;
            let topic: string | undefined;
            let data: Buffer | undefined;
            for (let i = 0; i + 1 < fields.length; i += 2) {
              const name = fields[i];
              if (name.length !== 1) continue;
              if (name[0] === FIELD_T) type = fields[i + 1].toString();
              else if (name[0] === FIELD_P) topic = fields[i + 1].toString();
              else if (name[0] === FIELD_D) data = fields[i + 1];
            }
            if (topic !== undefined && data !== undefined) hub.append(type as LiveEventType, topic, data, id);
          }
        }
      } catch (err) {
        if (reader !== conn) return;
        lost(err);
        if (last === null) {
          // Streams go on locally meanwhile.
          positioned();
          position = newest();
          position.catch(() => undefined);
        }
        await sleep(250);
      }
    }
  };

  /** The id of the newest event of the Redis stream ('0-0' when it is empty). */
  const newest = async () => {
    const entries = (await guarded(redis, redis.xrevrange(LIVE_STREAM_KEY, '+', '-', 'COUNT', 1))) as [
      string,
      string[],
    ][];
    return entries[0]?.[0] ?? '0-0';
  };

  return {
    async publish(type, topic, json, claim) {
      // Tried whenever the connection is up: a reader still away catches up from its last id.
      if (redis.status === 'ready') {
        try {
          const minId = `${Math.max(0, Date.now() - options.retentionMs)}-0`;
          const id = await runScript(
            redis,
            PUBLISH,
            [LIVE_STREAM_KEY, claim === undefined ? '' : CLAIM_PREFIX + claim.key],
            [minId, claim?.ttlMs ?? 0, type, topic, json],
          );
          // Not appended here: the reader delivers it, in the cluster's order.
          if (reader === null) back();
          return id !== null;
        } catch (err) {
          if (!isUnavailable(err)) throw err;
          lost(err);
        }
      } else {
        lost(new Error(`connection ${redis.status}`));
      }
      hub.append(type, topic, json);
      return true;
    },
    async claim(key, ttlMs) {
      if (redis.status !== 'ready') return true;
      try {
        return (await guarded(redis, redis.set(CLAIM_PREFIX + key, '1', 'PX', ttlMs, 'NX'))) === 'OK';
      } catch (err) {
        if (!isUnavailable(err)) throw err;
        lost(err);
        return true;
      }
    },
    start() {
      if (reader !== null) return positioning?.promise;
      const conn = redis.duplicate({ connectionName: 'marketlens-live', commandTimeout: blockMs + 2_000 });
      conn.on('error', () => undefined);
      reader = conn;
      const position = newest();
      position.catch(() => undefined);
      let resolve = () => {};
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      positioning = { promise, resolve };
      loop = read(conn, position);
      return promise;
    },
    async stop() {
      const conn = reader;
      if (conn === null) return;
      reader = null;
      positioned();
      if (pause !== null) clearTimeout(pause);
      pause = null;
      wake?.();
      wake = null;
      conn.disconnect();
      await loop;
      loop = null;
    },
    running: () => reader !== null,
  };
}
