import type { Redis } from 'ioredis';
import { guarded, whenReady } from './client.js';

/** What an invalidation is about: a session token, an API key, or a user whose tier or grants changed. */
export type InvalidationKind = 'session' | 'api-key' | 'user-tier';

const KINDS: ReadonlySet<string> = new Set<InvalidationKind>(['session', 'api-key', 'user-tier']);

/** One invalidation: drop whatever is cached about `id` of `kind`. */
export interface Invalidation {
  kind: InvalidationKind;
  id: string;
}

/** Receives every invalidation published by any instance, this one included. */
export type InvalidationHandler = (message: Invalidation) => void;

/** Where the bus publishes, and what it reports. */
export interface InvalidationBusOptions {
  /** The pub/sub channel (default `marketlens:invalidate`). */
  channel?: string;
  /** Errors of the subscriber connection (they repeat while Redis is down); ignored by default. */
  onError?: (err: Error) => void;
  /** Longest wait for the subscriber connection on the first {@link InvalidationBus.subscribe} (default 5000 ms). */
  readyTimeoutMs?: number;
}

interface Subscription {
  handler: InvalidationHandler;
  onGap?: () => void;
}

/**
 * Invalidations over Redis pub/sub, so logging out, revoking a key or changing a tier reaches the
 * caches of every instance within milliseconds rather than when their entries expire. Publishing
 * uses the given connection; receiving uses a second one (a connection that subscribes can do
 * nothing else), made on the first {@link subscribe}.
 *
 * Pub/sub delivers at most once: what is published while an instance's subscriber is
 * disconnected never reaches it. So when the subscriber has reconnected and subscribed again,
 * every `onGap` is called: a cache should then drop everything, as it cannot know what it missed.
 */
export class InvalidationBus {
  readonly #redis: Redis;
  readonly #channel: string;
  readonly #onError: (err: Error) => void;
  readonly #readyTimeoutMs: number;
  readonly #subscriptions = new Set<Subscription>();
  #subscriber: Redis | null = null;
  #subscribed: Promise<void> | null = null;

  constructor(redis: Redis, options: InvalidationBusOptions = {}) {
    this.#redis = redis;
    this.#channel = options.channel ?? 'marketlens:invalidate';
    this.#onError = options.onError ?? (() => {});
    this.#readyTimeoutMs = options.readyTimeoutMs ?? 5000;
  }

  /**
   * Tells every instance (this one too) to drop what it caches about `id`. Rejects with
   * `SharedStateUnavailable` when Redis cannot be reached: then no other instance was told.
   */
  async publish(kind: InvalidationKind, id: string): Promise<void> {
    await guarded(this.#redis, this.#redis.publish(this.#channel, JSON.stringify({ kind, id })));
  }

  /**
   * Calls `handler` with every invalidation from now on, and `onGap` whenever some may have been
   * missed (see the class). Resolves once the subscription is in place, to a function that ends
   * it; rejects with `SharedStateUnavailable` when the subscriber cannot connect.
   */
  async subscribe(handler: InvalidationHandler, onGap?: () => void): Promise<() => void> {
    const subscription: Subscription = { handler, onGap };
    this.#subscriptions.add(subscription);
    try {
      await this.#subscribe();
    } catch (err) {
      this.#subscriptions.delete(subscription);
      throw err;
    }
    return () => {
      this.#subscriptions.delete(subscription);
    };
  }

  /** Closes the subscriber connection (the publishing one belongs to the caller). */
  async close(): Promise<void> {
    const sub = this.#subscriber;
    this.#subscriber = null;
    this.#subscribed = null;
    this.#subscriptions.clear();
    if (sub) sub.disconnect();
  }

  #subscribe(): Promise<void> {
    if (this.#subscribed) return this.#subscribed;
    // Resubscribing is done here, not by ioredis, to know when it is done (then onGap).
    const sub = this.#redis.duplicate({ autoResubscribe: false });
    this.#subscriber = sub;
    sub.on('error', this.#onError);
    sub.on('message', (channel: string, text: string) => {
      if (channel === this.#channel) this.#deliver(text);
    });
    const subscribed = (async () => {
      await whenReady(sub, this.#readyTimeoutMs);
      await guarded(sub, sub.subscribe(this.#channel));
      sub.on('ready', () => {
        sub.subscribe(this.#channel).then(() => this.#gap(), this.#onError);
      });
    })();
    this.#subscribed = subscribed.catch((err: unknown) => {
      if (this.#subscriber === sub) {
        this.#subscriber = null;
        this.#subscribed = null;
      }
      sub.disconnect();
      throw err;
    });
    return this.#subscribed;
  }

  #deliver(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const { kind, id } = message as Record<string, unknown>;
    if (typeof kind !== 'string' || !KINDS.has(kind) || typeof id !== 'string') return;
    const invalidation: Invalidation = { kind: kind as InvalidationKind, id };
    for (const s of this.#subscriptions) {
      try {
        s.handler(invalidation);
      } catch (err) {
        this.#onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  #gap(): void {
    for (const s of this.#subscriptions) {
      try {
        s.onGap?.();
      } catch (err) {
        this.#onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}
