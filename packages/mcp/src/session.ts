/**
 * What an MCP session holds beyond one request: the resources it follows (`resources/subscribe`)
 * and the logging level it asked for (`logging/setLevel`). Over stdio the session lives as long as
 * the connection; over the server's Streamable HTTP endpoint each request gets a fresh `Server`
 * and the session outlives them (kept by the route under its `Mcp-Session-Id`).
 */
import type { LoggingLevel, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Followable, Followed, LiveBackend } from './backend.js';
import { ToolError } from './errors.js';

/** Severity order of RFC 5424, lowest first (`logging/setLevel` names the lowest one sent). */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** The level in force until the client sets one: warnings and worse only. */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'warning';

/** Sends a notification to the session's client (stdio: the connection; HTTP: its GET stream). */
export type Notify = (notification: ServerNotification) => void;

/** One MCP session's subscriptions and logging level. */
export class McpSession {
  /** Subscribed URIs: what each follows, and the function that stops it while it is followed. */
  readonly #followed = new Map<string, { followed: Followed; watch: Followable['watch']; stop: (() => void) | null }>();
  #notify: Notify;
  #level: LoggingLevel = DEFAULT_LOG_LEVEL;
  #closed = false;
  #paused: boolean;
  /** Subscriptions being checked, so two at once cannot both pass the cap. */
  #pending: Promise<unknown> = Promise.resolve();

  /**
   * `paused`: the session has nowhere to send notifications yet (an HTTP session before its GET
   * stream opens), so its subscriptions are kept but no candle is followed until {@link resume}.
   */
  constructor(notify: Notify, options: { paused?: boolean } = {}) {
    this.#notify = notify;
    this.#paused = options.paused ?? false;
  }

  /** Where notifications go from now on (stdio binds the connection once it exists). */
  set notify(notify: Notify) {
    this.#notify = notify;
  }

  /** The lowest level sent in `notifications/message`. */
  get level(): LoggingLevel {
    return this.#level;
  }

  set level(level: LoggingLevel) {
    this.#level = level;
  }

  /** The URIs followed, in the order subscribed. */
  get subscriptions(): string[] {
    return [...this.#followed.keys()];
  }

  /**
   * Follows `uri` (the candle `followed`): checked with every other subscription of the session
   * (the tier's gates and cap), then `notifications/resources/updated` each time the candle closes.
   * Subscribing again to a followed URI changes nothing.
   */
  subscribe(live: LiveBackend, uri: string, followed: Followed): Promise<void> {
    const run = this.#pending.then(async () => {
      if (this.#closed) throw new ToolError('InvalidRequest', 'The session has ended');
      if (this.#followed.has(uri)) return;
      const all = [...[...this.#followed.values()].map((f) => f.followed), followed];
      const checked = await live.checkFollow(all);
      const resolved = checked.followed[checked.followed.length - 1] ?? followed;
      if (this.#closed || this.#followed.has(uri)) return;
      const entry = { followed: resolved, watch: checked.watch, stop: null as (() => void) | null };
      this.#followed.set(uri, entry);
      if (!this.#paused) entry.stop = this.#follow(uri, entry);
    });
    this.#pending = run.catch(() => undefined);
    return run;
  }

  /** Stops following `uri`; unsubscribing from a URI not followed changes nothing. */
  unsubscribe(uri: string): void {
    const f = this.#followed.get(uri);
    if (f === undefined) return;
    this.#followed.delete(uri);
    f.stop?.();
  }

  /**
   * Stops following every candle but keeps the subscriptions: the session lost where it sends
   * notifications (its GET stream closed), so nothing is held for it until it comes back.
   */
  pause(): void {
    this.#paused = true;
    for (const f of this.#followed.values()) {
      f.stop?.();
      f.stop = null;
    }
  }

  /** Follows the subscriptions again (a GET stream opened). */
  resume(): void {
    if (this.#closed) return;
    this.#paused = false;
    for (const [uri, f] of this.#followed) f.stop ??= this.#follow(uri, f);
  }

  #follow(uri: string, f: { followed: Followed; watch: Followable['watch'] }): () => void {
    return f.watch(f.followed, () => {
      this.#notify({ method: 'notifications/resources/updated', params: { uri } });
      this.log('info', 'marketlens.live', {
        event: 'candle_closed',
        uri,
        asset_id: f.followed.asset_id,
        timeframe: f.followed.timeframe,
      });
    });
  }

  /** Sends `notifications/message` when `level` is at or above the session's level. */
  log(level: LoggingLevel, logger: string, data: unknown): void {
    if (this.#closed || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.#level)) return;
    this.#notify({ method: 'notifications/message', params: { level, logger, data } });
  }

  /** Ends the session: every subscription stops, nothing more is sent. */
  close(): void {
    this.#closed = true;
    for (const f of this.#followed.values()) f.stop?.();
    this.#followed.clear();
  }
}
