/**
 * The MCP sessions of `/mcp` on this instance. Requests stay stateless (each POST gets its own MCP
 * server, authenticated afresh); a session only holds what must outlive a request: the resources
 * it follows, its logging level, and its GET stream, where `notifications/resources/updated` and
 * `notifications/message` are sent. A session is bound to the user and OAuth client of the token
 * that opened it, and ends with a DELETE, when the token last presented is no longer live (checked
 * before a notification is sent), or when it was idle (no request, no open stream) for
 * {@link MCP_SESSION_IDLE_MS}; ended sessions are swept when a new one is made, so no timer is
 * held for them. Sessions live on the instance that made them (see docs/decisions.md).
 *
 * The GET stream resumes: each notification has an id (the session's count of them) and is kept,
 * {@link MCP_EVENTS_KEPT} at most and no longer than the live streams' retention window, as the MCP
 * SDK's `EventStore` keeps the events of a standalone GET stream, also while no stream is open. A
 * client that opens the stream again with `Last-Event-ID` (the SDK's client does, after a drop) is
 * sent the kept notifications after that id first. So that a dropped stream misses nothing, the
 * session follows its candles for the retention window after its stream went; then it stops
 * following them (one timer per session without a stream, cleared when a stream opens or the
 * session ends) until a stream opens again.
 */
import { randomUUID } from 'node:crypto';
import { McpSession } from '@marketlens/mcp';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { liveOf } from '../live/live.js';
import { SseStream } from '../live/stream.js';
import { type AppState, stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';

/** A session without a request or an open stream for this long is ended. */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;
/** Sessions one user holds at most on an instance (the oldest is ended beyond). */
export const MCP_SESSIONS_PER_USER = 10;
/** Unsent bytes of a session's GET stream before it is closed as slow (as a live stream). */
const STREAM_BUFFER = 256 * 1024;
/** How long a token check holds before a notification checks it again. */
const CHECK_EVERY_MS = 30_000;
/** Notifications kept per session for a GET stream that resumes (the newest; each for the retention window at most). */
export const MCP_EVENTS_KEPT = 100;

/** A notification as sent on the GET stream, kept for a client that resumes. */
interface KeptEvent {
  /** Its id: the session's count of notifications. */
  readonly seq: number;
  /** When it was sent (the app's clock). */
  readonly at: number;
  readonly frame: Uint8Array;
}

const encoder = new TextEncoder();

/** One `/mcp` session. */
export interface HttpMcpSession {
  readonly id: string;
  readonly userId: string;
  readonly clientId: string;
  readonly session: McpSession;
  /** Whether the token last presented is still live (a stored check, re-read when stale). */
  tokenLive: () => Promise<boolean>;
  stream: SseStream | null;
  lastSeen: number;
  checkedAt: number;
  /** The token check in flight, if any (notifications wait for it). */
  checking: Promise<boolean> | null;
  /** The notifications kept for a resuming stream, oldest first, and the last id given. */
  events: KeptEvent[];
  seq: number;
  /** Ends the following of a session whose stream went, once the retention window has passed. */
  away: ReturnType<typeof setTimeout> | null;
}

/** The sessions of one app. */
export class McpSessions {
  readonly #sessions = new Map<string, HttpMcpSession>();
  readonly #now: () => number;
  readonly #retentionMs: number;

  /** `retentionMs`: how long a notification is kept for a resuming stream (the live streams' window). */
  constructor(now: () => number, retentionMs: number) {
    this.#now = now;
    this.#retentionMs = retentionMs;
  }

  /** A new session for the token's user and client; idle and surplus sessions are ended first. */
  create(userId: string, clientId: string, tokenLive: () => Promise<boolean>): HttpMcpSession {
    const now = this.#now();
    const mine: HttpMcpSession[] = [];
    for (const s of this.#sessions.values()) {
      if (s.stream === null && now - s.lastSeen > MCP_SESSION_IDLE_MS) this.end(s.id);
      else if (s.userId === userId) mine.push(s);
    }
    mine.sort((a, b) => a.lastSeen - b.lastSeen);
    while (mine.length >= MCP_SESSIONS_PER_USER) this.end((mine.shift() as HttpMcpSession).id);
    const entry: HttpMcpSession = {
      id: randomUUID(),
      userId,
      clientId,
      // Nothing is followed before the GET stream opens (nowhere to send a notification).
      session: new McpSession((n) => this.#send(entry, n), { paused: true }),
      tokenLive,
      stream: null,
      lastSeen: now,
      checkedAt: now,
      checking: null,
      events: [],
      seq: 0,
      away: null,
    };
    this.#sessions.set(entry.id, entry);
    return entry;
  }

  /**
   * The session `id` of `userId` and `clientId`, touched, or null: unknown, ended, idle too long,
   * or another's (answered as unknown: a session id is no credential).
   */
  get(id: string, userId: string, clientId: string): HttpMcpSession | null {
    const s = this.#sessions.get(id);
    if (s === undefined || s.userId !== userId || s.clientId !== clientId) return null;
    const now = this.#now();
    if (s.stream === null && now - s.lastSeen > MCP_SESSION_IDLE_MS) {
      this.end(id);
      return null;
    }
    s.lastSeen = now;
    return s;
  }

  /**
   * Opens the session's GET stream (a newer one replaces an older one, which is closed). With
   * `lastEventId` (a resuming client) the kept notifications after it are sent first.
   */
  openStream(s: HttpMcpSession, lastEventId?: string): SseStream {
    s.stream?.finish(undefined, 'client');
    this.#stay(s);
    const stream = new SseStream(STREAM_BUFFER, () => {
      if (s.stream === stream) {
        // The client went away: its candles are followed for the retention window (a stream that
        // resumes misses nothing), then no longer (the subscriptions are kept for a stream it
        // opens again).
        s.stream = null;
        s.lastSeen = this.#now();
        s.away = setTimeout(() => {
          s.away = null;
          if (s.stream !== null) return;
          s.session.pause();
          s.events = [];
        }, this.#retentionMs);
        s.away.unref();
      }
    });
    s.stream = stream;
    s.session.resume();
    // A comment first, so the client sees the stream open at once.
    stream.heartbeat();
    const from = lastEventId === undefined ? null : /^\d{1,15}$/.exec(lastEventId.trim());
    if (from !== null) {
      this.#prune(s);
      const after = Number(from[0]);
      for (const e of s.events) if (e.seq > after) stream.write(e.frame);
    }
    return stream;
  }

  /** Ends session `id`: its subscriptions stop, its stream closes. */
  end(id: string): void {
    const s = this.#sessions.get(id);
    if (s === undefined) return;
    this.#sessions.delete(id);
    this.#stay(s);
    s.events = [];
    s.session.close();
    s.stream?.finish(undefined, 'shutdown');
  }

  /** Clears the timer of a session whose stream went (a stream opens, or the session ends). */
  #stay(s: HttpMcpSession): void {
    if (s.away === null) return;
    clearTimeout(s.away);
    s.away = null;
  }

  /** Drops the kept notifications older than the retention window, or beyond the most kept. */
  #prune(s: HttpMcpSession): void {
    const now = this.#now();
    let drop = Math.max(0, s.events.length - MCP_EVENTS_KEPT);
    while (drop < s.events.length && now - s.events[drop].at > this.#retentionMs) drop++;
    if (drop > 0) s.events.splice(0, drop);
  }

  /** Ends every session (server shutdown). */
  close(): void {
    for (const id of [...this.#sessions.keys()]) this.end(id);
  }

  /**
   * Sessions held, GET streams open, resources followed, notifications kept for resuming streams
   * and notifications made (sent or kept) by the sessions held (tests count them).
   */
  stats(): { sessions: number; streams: number; subscriptions: number; kept: number; notified: number } {
    let streams = 0;
    let subscriptions = 0;
    let kept = 0;
    let notified = 0;
    for (const s of this.#sessions.values()) {
      if (s.stream !== null) streams++;
      subscriptions += s.session.subscriptions.length;
      kept += s.events.length;
      notified += s.seq;
    }
    return { sessions: this.#sessions.size, streams, subscriptions, kept, notified };
  }

  /**
   * Sends a notification on the session's GET stream, with its id, and keeps it for a stream that
   * resumes (none open: it is only kept). The token is checked first when its last check is
   * stale: a revoked or expired token ends the session instead.
   */
  #send(s: HttpMcpSession, n: ServerNotification): void {
    if (!this.#sessions.has(s.id)) return;
    const now = this.#now();
    s.seq++;
    const frame = encoder.encode(`id: ${s.seq}\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...n })}\n\n`);
    s.events.push({ seq: s.seq, at: now, frame });
    this.#prune(s);
    // No stream: kept for the client that comes back (it presents its token again to open one).
    if (s.stream === null) return;
    if (s.checking === null && now - s.checkedAt > CHECK_EVERY_MS) {
      s.checkedAt = now;
      // Storage away: the notifications go, the token is checked again next time.
      s.checking = s
        .tokenLive()
        .catch(() => true)
        .then((live) => {
          s.checking = null;
          if (!live) this.end(s.id);
          return live;
        });
    }
    // Behind a check in flight, in order: nothing is sent before the token is known to hold.
    if (s.checking === null) s.stream.write(frame);
    else
      void s.checking.then((live) => {
        if (live) s.stream?.write(frame);
      });
  }
}

const SESSIONS = stateKey('mcp-sessions', (): { sessions: McpSessions | null } => ({ sessions: null }));

/** The app's MCP sessions, made on first use. */
export function mcpSessionsOf(deps: AppDeps): McpSessions {
  const held = stateOf(deps, SESSIONS);
  held.sessions ??= new McpSessions(deps.now, liveOf(deps).options.retentionMs);
  return held.sessions;
}

/** An app's MCP sessions once made, else null (tests count them). */
export function mcpSessionsIn(app: { state?: AppState }): McpSessions | null {
  return stateOf(app, SESSIONS).sessions;
}
