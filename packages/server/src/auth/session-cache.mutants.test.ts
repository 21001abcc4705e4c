/**
 * The session cache against its documented rules: an entry is never believed at or after its
 * end, a TTL of 0 keeps nothing, every kind of invalidation drops what it names (and only that)
 * and refuses a resolution begun before it, a stale load neither drops a newer entry nor ends a
 * newer load, and invalidations are published to and applied from the other instances. Times
 * are passed in (no clock is read). Written against the survivors of
 * `MUTATION_MODULES=auth pnpm mutation:server` (docs/testing.md). The cache is what `authStep`
 * resolves sessions through.
 */
import { describe, expect, it } from 'vitest';
import type { Invalidation, InvalidationBus, InvalidationKind } from '../platform/redis/invalidation.js';
import { secretHash } from './secrets.js';
import {
  forgetSession,
  forgetUser,
  type LoadedSession,
  SessionCache,
  type SessionCaller,
  shareInvalidations,
} from './session-cache.js';

const callerOf = (id: string): SessionCaller => ({
  kind: 'session',
  user: { id, email: `${id}@example.com`, password_hash: '', tier: 'free', created_at: 0 },
  tier: 'free',
  tier_expires_at: null,
  api_key_id: null,
});

/** A loader whose loads the test settles by hand. */
function manualLoader() {
  const pending: { token: string; resolve: (s: LoadedSession) => void; reject: (e: Error) => void }[] = [];
  const load = (token: string) =>
    new Promise<LoadedSession>((resolve, reject) => pending.push({ token, resolve, reject }));
  return { load, pending };
}

describe('SessionCache.get and set', () => {
  it('believes an entry up to, not at, the end of its TTL', () => {
    const c = new SessionCache(1000);
    c.set('t', callerOf('u1'), 1e9, 0, c.epoch);
    expect(c.get('t', 999)?.user.id).toBe('u1');
    expect(c.get('t', 1000)).toBeUndefined();
    // an expired entry is dropped, not kept
    expect(c.size).toBe(0);
  });

  it('keeps nothing with a TTL of 0', () => {
    const c = new SessionCache(0);
    c.set('t', callerOf('u1'), 1e9, 0, c.epoch);
    expect(c.size).toBe(0);
    expect(c.get('t', 0)).toBeUndefined();
  });
});

describe('SessionCache invalidations', () => {
  const invalidations: Record<string, (c: SessionCache) => void> = {
    deleteToken: (c) => c.deleteToken('other'),
    deleteTokenHash: (c) => c.deleteTokenHash(secretHash('other')),
    deleteUser: (c) => c.deleteUser('nobody'),
    clear: (c) => c.clear(),
  };

  it('refuses a resolution begun before any sequence of invalidations', () => {
    for (const [a, first] of Object.entries(invalidations)) {
      for (const [b, second] of Object.entries(invalidations)) {
        const c = new SessionCache(1000);
        const begun = c.epoch;
        first(c);
        second(c);
        c.set('t', callerOf('u1'), 1e9, 0, begun);
        expect({ a, b, stored: c.get('t', 1) }).toEqual({ a, b, stored: undefined });
        // one begun after them is stored
        c.set('t', callerOf('u1'), 1e9, 0, c.epoch);
        expect({ a, b, stored: c.get('t', 1)?.user.id }).toEqual({ a, b, stored: 'u1' });
      }
    }
  });

  it('drops the entries of the named user only', () => {
    const c = new SessionCache(1000);
    c.set('a', callerOf('u1'), 1e9, 0, c.epoch);
    c.set('b', callerOf('u2'), 1e9, 0, c.epoch);
    c.set('c', callerOf('u1'), 1e9, 0, c.epoch);
    c.deleteUser('u1');
    expect(c.size).toBe(1);
    expect(c.get('b', 1)?.user.id).toBe('u2');
  });

  it('drops the token of a hash, entry and load, and nothing else', async () => {
    const c = new SessionCache(1000);
    c.set('a', callerOf('u1'), 1e9, 0, c.epoch);
    c.set('b', callerOf('u2'), 1e9, 0, c.epoch);
    c.deleteTokenHash(secretHash('a'));
    expect(c.size).toBe(1);
    expect(c.get('b', 1)?.user.id).toBe('u2');

    const { load, pending } = manualLoader();
    const x = c.resolve('x', 2, load, null);
    const y = c.resolve('y', 2, load, null);
    c.deleteTokenHash(secretHash('x'));
    // x's load is no longer shared: a new one starts; y's still is
    expect(c.resolve('x', 3, load, null)).not.toBe(x);
    expect(c.resolve('y', 3, load, null)).toBe(y);
    expect(pending.map((p) => p.token)).toEqual(['x', 'y', 'x']);
  });

  it('clear drops every entry and every load under way', () => {
    const c = new SessionCache(1000);
    c.set('a', callerOf('u1'), 1e9, 0, c.epoch);
    const { load, pending } = manualLoader();
    const x = c.resolve('x', 0, load, null);
    c.clear();
    expect(c.size).toBe(0);
    expect(c.resolve('x', 1, load, null)).not.toBe(x);
    expect(pending).toHaveLength(2);
  });
});

describe('SessionCache.resolve: a stale load', () => {
  it('does not end the newer load of its token when it settles', async () => {
    for (const outcome of ['resolves', 'rejects'] as const) {
      const c = new SessionCache(1000);
      const { load, pending } = manualLoader();
      const stale = c.resolve('t', 0, load, null);
      c.deleteToken('t');
      const fresh = c.resolve('t', 1, load, null);
      if (outcome === 'resolves') pending[0].resolve({ caller: callerOf('u1'), sessionExpiresAt: 1e9 });
      else pending[0].reject(new Error('gone'));
      await Promise.resolve(stale).catch(() => undefined);
      // the newer load is still the one concurrent misses share
      expect({ outcome, shared: c.resolve('t', 2, load, null) === fresh }).toEqual({ outcome, shared: true });
      expect(pending).toHaveLength(2);
    }
  });

  it('that fails after an invalidation does not drop the entry a newer load stored', async () => {
    const c = new SessionCache(1000);
    const { load, pending } = manualLoader();
    const stale = c.resolve('t', 0, load, null);
    c.deleteUser('someone else'); // an invalidation while the first load is under way
    const fresh = c.resolve('t', 1, load, null);
    pending[1].resolve({ caller: callerOf('u1'), sessionExpiresAt: 1e9 });
    await fresh;
    pending[0].reject(new Error('storage hiccup'));
    await expect(stale).rejects.toThrow('storage hiccup');
    expect(c.resolve('t', 2, load, null)).toMatchObject({ user: { id: 'u1' } });
    expect(pending).toHaveLength(2);
  });
});

describe('forgetSession, forgetUser and shareInvalidations', () => {
  /** An invalidation bus in memory: what was published, and a way to deliver as another instance would. */
  function memoryBus() {
    const published: Invalidation[] = [];
    const subscribers: { handler: (m: Invalidation) => void; onGap?: () => void }[] = [];
    const bus = {
      async publish(kind: InvalidationKind, id: string) {
        published.push({ kind, id });
      },
      async subscribe(handler: (m: Invalidation) => void, onGap?: () => void) {
        const s = { handler, onGap };
        subscribers.push(s);
        return () => {
          subscribers.splice(subscribers.indexOf(s), 1);
        };
      },
    };
    return {
      bus: bus as unknown as InvalidationBus,
      published,
      deliver: (m: Invalidation) => {
        for (const s of subscribers) s.handler(m);
      },
      gap: () => {
        for (const s of subscribers) s.onGap?.();
      },
      subscribers,
    };
  }

  it('drops the token or user in every cache of the process', () => {
    const c1 = new SessionCache(1000);
    const c2 = new SessionCache(1000);
    for (const c of [c1, c2]) {
      c.set('mls_a', callerOf('u1'), 1e9, 0, c.epoch);
      c.set('mls_b', callerOf('u2'), 1e9, 0, c.epoch);
      c.set('mls_c', callerOf('u3'), 1e9, 0, c.epoch);
    }
    forgetSession('mls_a');
    forgetUser('u2');
    for (const c of [c1, c2]) {
      expect([c.get('mls_a', 1), c.get('mls_b', 1), c.get('mls_c', 1)?.user.id]).toEqual([undefined, undefined, 'u3']);
    }
  });

  it("publishes this process's invalidations (a session by its hash) until sharing stops", async () => {
    const m = memoryBus();
    const stop = await shareInvalidations(m.bus);
    forgetSession('mls_secret');
    forgetUser('u9');
    expect(m.published).toEqual([
      { kind: 'session', id: secretHash('mls_secret') },
      { kind: 'user-tier', id: 'u9' },
    ]);
    stop();
    expect(m.subscribers).toHaveLength(0);
    forgetSession('mls_later');
    expect(m.published).toHaveLength(2);
  });

  it('stopping an earlier sharing leaves the current one publishing', async () => {
    const first = memoryBus();
    const second = memoryBus();
    const stopFirst = await shareInvalidations(first.bus);
    const stopSecond = await shareInvalidations(second.bus);
    stopFirst();
    forgetUser('u7');
    expect([first.published, second.published]).toEqual([[], [{ kind: 'user-tier', id: 'u7' }]]);
    stopSecond();
  });

  it("applies the other instances' invalidations, and clears everything after a gap", async () => {
    const m = memoryBus();
    const stop = await shareInvalidations(m.bus);
    const c = new SessionCache(1000);
    const fill = () => {
      c.set('mls_a', callerOf('u1'), 1e9, 0, c.epoch);
      c.set('mls_b', callerOf('u2'), 1e9, 0, c.epoch);
      c.set('mls_c', callerOf('u3'), 1e9, 0, c.epoch);
    };
    fill();
    m.deliver({ kind: 'session', id: secretHash('mls_a') });
    expect([c.get('mls_a', 1), c.get('mls_b', 1)?.user.id, c.get('mls_c', 1)?.user.id]).toEqual([
      undefined,
      'u2',
      'u3',
    ]);
    m.deliver({ kind: 'user-tier', id: 'u2' });
    expect([c.get('mls_b', 1), c.get('mls_c', 1)?.user.id]).toEqual([undefined, 'u3']);
    // a user id is not a token hash, nor a token hash a user id
    fill();
    m.deliver({ kind: 'user-tier', id: secretHash('mls_a') });
    m.deliver({ kind: 'session', id: 'u1' });
    expect(c.size).toBe(3);
    m.gap();
    expect(c.size).toBe(0);
    stop();
  });
});
