/**
 * The events of one instance's live streams: who follows which topic, and the events of the
 * retention window kept for clients that resume. Events arrive already ordered (from this process
 * or from the cluster's log); each gets an id `<ms>-<seq>` that only grows, so the ids a stream
 * sees are monotonic and `Last-Event-ID` names a point in one order.
 */

/** The event types that carry an id (the `ready` and `error` events of one stream do not). */
export type LiveEventType = 'analysis' | 'price' | 'alert' | 'sync';

/** One event as every stream that follows its topic sends it. */
export interface LiveEvent {
  /** `<ms>-<seq>`: the cluster log's id, or one made here after the last (see {@link LiveHub.append}). */
  readonly id: string;
  readonly ms: number;
  readonly seq: number;
  readonly type: LiveEventType;
  /** `analysis:<asset>:<tf>`, `price:<asset>` or `user:<user id>`. */
  readonly topic: string;
  /** The whole SSE frame, encoded once and sent as it is to every stream. */
  readonly frame: Uint8Array;
  /** When this instance appended it (its clock), for the retention window. */
  readonly at: number;
}

/** Receives the events of the topics it follows. */
export interface LiveSink {
  deliver(event: LiveEvent): void;
}

/** The topic of a followed candle's analyses. */
export const analysisTopic = (assetId: string, timeframe: string) => `analysis:${assetId}:${timeframe}`;
/** The topic of an asset's prices. */
export const priceTopic = (assetId: string) => `price:${assetId}`;
/** The topic of one user's alerts and syncs. */
export const userTopic = (userId: string) => `user:${userId}`;

const encoder = new TextEncoder();

/**
 * An SSE frame: `id`, `event` and the data as one line (JSON never holds a raw line break). The
 * data may be given as the JSON's UTF-8 bytes (as the cluster's log delivers them): they are copied
 * into the frame as they are, neither decoded nor encoded again.
 */
export function sseFrame(type: string, json: string | Uint8Array, id?: string): Uint8Array {
  const head = `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: `;
  if (typeof json === 'string') return encoder.encode(`${head}${json}\n\n`);
  const start = encoder.encode(head);
  const frame = new Uint8Array(start.byteLength + json.byteLength + 2);
  frame.set(start);
  frame.set(json, start.byteLength);
  frame[frame.byteLength - 2] = 10;
  frame[frame.byteLength - 1] = 10;
  return frame;
}

/** `<ms>-<seq>` as numbers, or null when `id` is not of that form. */
export function parseEventId(id: string): { ms: number; seq: number } | null {
  const m = /^(\d{1,16})-(\d{1,16})$/.exec(id);
  if (m === null) return null;
  const ms = Number(m[1]);
  const seq = Number(m[2]);
  return Number.isSafeInteger(ms) && Number.isSafeInteger(seq) ? { ms, seq } : null;
}

const after = (a: { ms: number; seq: number }, b: { ms: number; seq: number }) =>
  a.ms > b.ms || (a.ms === b.ms && a.seq > b.seq);

/** How a hub keeps events. */
export interface LiveHubOptions {
  /** The clock (ms). */
  now: () => number;
  /** Events younger than this are kept for resumption. */
  retentionMs: number;
  /** ... and at most this many (the oldest dropped first), so memory stays bounded under a flood. */
  maxEvents: number;
  /** Told of each event once it was delivered (the live engine watches for the analyses of a close). */
  appended?: (event: LiveEvent) => void;
}

/**
 * Topics and their sinks, and the retention log. Everything is synchronous: an event is appended
 * and delivered to every sink in one call, and a sink that subscribes and replays the log does so
 * in one call too, so no event falls between the replay and the live delivery.
 */
export class LiveHub {
  readonly #topics = new Map<string, Set<LiveSink>>();
  readonly #options: LiveHubOptions;
  /** The retention log, oldest first, from `#head` on (the prefix before it is dropped in batches). */
  #log: LiveEvent[] = [];
  #head = 0;
  #last: { ms: number; seq: number };
  /** Every event after this id is in the log (the newest one dropped, or the start). */
  #complete: { ms: number; seq: number };
  #joined = false;

  constructor(options: LiveHubOptions) {
    this.#options = options;
    // Any cluster id is taken as it is until an id is made here; nothing before now is held.
    this.#last = { ms: 0, seq: 0 };
    this.#complete = { ms: options.now(), seq: 0 };
  }

  /**
   * The cluster log is read from `id` on (a reader started): every event after it will be here.
   * The first join sets the point, later ones only move it forward (events between a reader's stop
   * and its next start were never read).
   */
  joined(id: string): void {
    const at = parseEventId(id);
    if (at === null) return;
    if (!this.#joined || after(at, this.#complete)) this.#complete = at;
    this.#joined = true;
  }

  /**
   * Appends an event and delivers it to the sinks of its topic. `id` is the cluster log's id; an
   * id that is not after the last one (absent, or from a log that fell behind this instance's own
   * ids during an outage) is replaced by the next one here, so ids only grow. `json` is the data,
   * as text or as its UTF-8 bytes.
   */
  append(type: LiveEventType, topic: string, json: string | Uint8Array, id?: string): LiveEvent {
    const now = this.#options.now();
    const given = id === undefined ? null : parseEventId(id);
    const next =
      given !== null && after(given, this.#last)
        ? given
        : now > this.#last.ms
          ? { ms: now, seq: 0 }
          : { ms: this.#last.ms, seq: this.#last.seq + 1 };
    // An event made here while the log was complete from an earlier point keeps it so.
    this.#last = next;
    const eventId = `${next.ms}-${next.seq}`;
    const event: LiveEvent = {
      id: eventId,
      ms: next.ms,
      seq: next.seq,
      type,
      topic,
      frame: sseFrame(type, json, eventId),
      at: now,
    };
    this.#log.push(event);
    this.prune(now);
    const sinks = this.#topics.get(topic);
    if (sinks !== undefined) for (const sink of sinks) sink.deliver(event);
    this.#options.appended?.(event);
    return event;
  }

  /**
   * Subscribes `sink` to `topics` and, when `lastEventId` is given, first delivers every retained
   * event of those topics after it. Returns whether the resumption is without loss (the log holds
   * every event after that id) and the function that unsubscribes.
   */
  subscribe(topics: readonly string[], sink: LiveSink, lastEventId?: string): { resumed: boolean; close: () => void } {
    let resumed = false;
    if (lastEventId !== undefined) {
      const from = parseEventId(lastEventId);
      if (from !== null && !after(this.#complete, from)) {
        resumed = true;
        const wanted = new Set(topics);
        for (let i = this.#head; i < this.#log.length; i++) {
          const e = this.#log[i];
          if (after(e, from) && wanted.has(e.topic)) sink.deliver(e);
        }
      }
    }
    for (const topic of topics) {
      let sinks = this.#topics.get(topic);
      if (sinks === undefined) {
        sinks = new Set();
        this.#topics.set(topic, sinks);
      }
      sinks.add(sink);
    }
    let open = true;
    return {
      resumed,
      close: () => {
        if (!open) return;
        open = false;
        for (const topic of topics) {
          const sinks = this.#topics.get(topic);
          if (sinks === undefined) continue;
          sinks.delete(sink);
          if (sinks.size === 0) this.#topics.delete(topic);
        }
      },
    };
  }

  /** Drops events older than the retention window, or beyond the most kept. */
  prune(now: number): void {
    const { retentionMs, maxEvents } = this.#options;
    let head = this.#head;
    while (head < this.#log.length && (this.#log.length - head > maxEvents || now - this.#log[head].at > retentionMs)) {
      this.#complete = this.#log[head];
      head++;
    }
    if (head > 1024 && head * 2 > this.#log.length) {
      this.#log = this.#log.slice(head);
      head = 0;
    }
    this.#head = head;
  }

  /** Topics followed, sinks across them (a sink counted once per topic) and events retained. */
  stats(): { topics: number; subscriptions: number; retained: number } {
    let subscriptions = 0;
    for (const sinks of this.#topics.values()) subscriptions += sinks.size;
    return { topics: this.#topics.size, subscriptions, retained: this.#log.length - this.#head };
  }

  /** The id of the newest event, `<ms>-<seq>`. */
  lastId(): string {
    return `${this.#last.ms}-${this.#last.seq}`;
  }
}
