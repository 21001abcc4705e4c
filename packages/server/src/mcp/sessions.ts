/**
 * The MCP sessions of `/mcp` on this instance. Requests stay stateless (each POST gets its own MCP
 * server, authenticated afresh); a session only holds what must outlive a request: the resources
 * it follows, its logging level, and its GET stream, where `notifications/resources/updated` and
 * `notifications/message` are sent. A session is bound to the user and OAuth client of the token
 * that opened it, and ends with a DELETE, when the token last presented is no longer live (checked
 * before a notification is sent), or when it was idle (no request, no open stream) for
 * {@link MCP_SESSION_IDLE_MS}; ended sessions are swept when a new one is made, so no timer is
 * held for them. Sessions live on the instance that made them (see docs/decisions.md).
 */
import { randomUUID } from 'node:crypto';
import { McpSession } from '@marketlens/mcp';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
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
}

/** The sessions of one app. */
export class McpSessions {
  readonly #sessions = new Map<string, HttpMcpSession>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
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

  /** Opens the session's GET stream (a newer one replaces an older one, which is closed). */
  openStream(s: HttpMcpSession): SseStream {
    s.stream?.finish(undefined, 'client');
    const stream = new SseStream(STREAM_BUFFER, () => {
      if (s.stream === stream) {
        // The client went away: its candles are no longer followed (the subscriptions are kept
        // for a stream it opens again).
        s.stream = null;
        s.lastSeen = this.#now();
        s.session.pause();
      }
    });
    s.stream = stream;
    s.session.resume();
    // A comment first, so the client sees the stream open at once.
    stream.heartbeat();
    return stream;
  }

  /** Ends session `id`: its subscriptions stop, its stream closes. */
  end(id: string): void {
    const s = this.#sessions.get(id);
    if (s === undefined) return;
    this.#sessions.delete(id);
    s.session.close();
    s.stream?.finish(undefined, 'shutdown');
  }

  /** Ends every session (server shutdown). */
  close(): void {
    for (const id of [...this.#sessions.keys()]) this.end(id);
  }

  /** Sessions held, GET streams open and resources followed (tests count them). */
  stats(): { sessions: number; streams: number; subscriptions: number } {
    let streams = 0;
    let subscriptions = 0;
    for (const s of this.#sessions.values()) {
      if (s.stream !== null) streams++;
      subscriptions += s.session.subscriptions.length;
    }
    return { sessions: this.#sessions.size, streams, subscriptions };
  }

  /**
   * Sends a notification on the session's GET stream (none open: it is not kept; the client reads
   * the resource when it comes back). The token is checked first when its last check is stale: a
   * revoked or expired token ends the session instead.
   */
  #send(s: HttpMcpSession, n: ServerNotification): void {
    if (s.stream === null || !this.#sessions.has(s.id)) return;
    const frame = encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...n })}\n\n`);
    const now = this.#now();
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
  held.sessions ??= new McpSessions(deps.now);
  return held.sessions;
}

/** An app's MCP sessions once made, else null (tests count them). */
export function mcpSessionsIn(app: { state?: AppState }): McpSessions | null {
  return stateOf(app, SESSIONS).sessions;
}
