import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reach } from '../../../core/src/testing/reach.js';
import { type LiveEvent, LiveHub, parseEventId } from './hub.js';

const TOPICS = ['price:bitcoin', 'price:ethereum', 'analysis:bitcoin:d1', 'user:u1'] as const;

/** One step: an event appended (with a cluster id, possibly stale, or none), or the clock moved. */
type Step = { kind: 'append'; topic: number; given: 'none' | 'ahead' | 'stale' } | { kind: 'tick'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('append' as const),
    topic: fc.integer({ min: 0, max: TOPICS.length - 1 }),
    given: fc.constantFrom('none' as const, 'ahead' as const, 'stale' as const),
  }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 400 }) }),
);

/** The events' order as one number (the draws' times stay below 2^53 / 1e6). */
const order = (e: { ms: number; seq: number }) => e.ms * 1e6 + e.seq;

describe('LiveHub', () => {
  it('ids only grow, and a resume from any retained id delivers exactly the later events of its topics, in order', () => {
    const resumed = reach('a resume that replays at least one event');
    resumed.assert(
      fc.property(
        fc.array(step, { minLength: 20, maxLength: 120 }),
        fc.subarray([...TOPICS], { minLength: 1 }),
        fc.nat(),
        (steps, topics, pick) => {
          const clock = { now: 1_000_000 };
          // A window of 2 s: the draws' clock moves up to 48 s, so older events fall out of it.
          const hub = new LiveHub({ now: () => clock.now, retentionMs: 2_000, maxEvents: 10_000 });
          // Reading a cluster log from its start: every event appended from here on is held.
          hub.joined('0-0');
          const all: LiveEvent[] = [];
          let cluster = clock.now;
          for (const s of steps) {
            if (s.kind === 'tick') {
              clock.now += s.ms;
              continue;
            }
            // a cluster id ahead of the hub, or one at or behind the last (after an outage)
            cluster = s.given === 'ahead' ? Math.max(cluster, clock.now) + 1 : cluster;
            const id = s.given === 'none' ? undefined : s.given === 'ahead' ? `${cluster}-0` : '1-0';
            all.push(hub.append('price', TOPICS[s.topic], '{}', id));
          }
          for (let i = 1; i < all.length; i++) expect(order(all[i])).toBeGreaterThan(order(all[i - 1]));
          for (const e of all) expect(parseEventId(e.id)).toEqual({ ms: e.ms, seq: e.seq });
          // Resume from one of the events still retained.
          const retained = all.filter((e) => clock.now - e.at <= 2_000);
          if (retained.length === 0) return;
          const from = retained[pick % retained.length];
          const got: LiveEvent[] = [];
          const sub = hub.subscribe(topics, { deliver: (e) => got.push(e) }, from.id);
          expect(sub.resumed).toBe(true);
          const want = all.filter((e) => order(e) > order(from) && topics.includes(e.topic as (typeof TOPICS)[number]));
          expect(got.map((e) => e.id)).toEqual(want.map((e) => e.id));
          resumed.hitIf(want.length > 0);
          // Live events follow the replay.
          const live = hub.append('price', topics[0], '{}');
          expect(got.at(-1)).toBe(live);
          sub.close();
          expect(hub.stats().subscriptions).toBe(0);
        },
      ),
      { atLeast: 0.5 },
    );
  });

  it('a resume from an id older than the window is reported as not resumed and replays nothing', () => {
    const clock = { now: 5_000_000 };
    const hub = new LiveHub({ now: () => clock.now, retentionMs: 1_000, maxEvents: 100 });
    const first = hub.append('price', 'price:bitcoin', '{"n":1}');
    const second = hub.append('price', 'price:bitcoin', '{"n":2}');
    clock.now += 1_500;
    const third = hub.append('price', 'price:bitcoin', '{"n":3}');
    const got: string[] = [];
    const sub = hub.subscribe(['price:bitcoin'], { deliver: (e) => got.push(e.id) }, first.id);
    expect(sub.resumed).toBe(false);
    expect(got).toEqual([]);
    // From the newest event dropped, nothing is missing: the rest is replayed.
    const later: string[] = [];
    expect(hub.subscribe(['price:bitcoin'], { deliver: (e) => later.push(e.id) }, second.id).resumed).toBe(true);
    expect(later).toEqual([third.id]);
    // Unreadable ids are not resumed either.
    expect(hub.subscribe(['price:bitcoin'], { deliver: () => {} }, 'garbage').resumed).toBe(false);
  });

  it('keeps at most maxEvents, the oldest dropped first', () => {
    const clock = { now: 1_000 };
    const hub = new LiveHub({ now: () => clock.now, retentionMs: 60_000, maxEvents: 3 });
    const ids = Array.from({ length: 5 }, () => hub.append('price', 'price:bitcoin', '{}').id);
    expect(hub.stats().retained).toBe(3);
    expect(hub.subscribe(['price:bitcoin'], { deliver: () => {} }, ids[0]).resumed).toBe(false);
    const got: string[] = [];
    expect(hub.subscribe(['price:bitcoin'], { deliver: (e) => got.push(e.id) }, ids[1]).resumed).toBe(true);
    expect(got).toEqual(ids.slice(2));
  });

  it('frames each event once as SSE: id, event and one data line', () => {
    const hub = new LiveHub({ now: () => 42, retentionMs: 1_000, maxEvents: 10 });
    const e = hub.append('alert', 'user:u1', JSON.stringify({ body: 'two\nlines' }));
    expect(new TextDecoder().decode(e.frame)).toBe(`id: ${e.id}\nevent: alert\ndata: {"body":"two\\nlines"}\n\n`);
  });

  it('frames data given as UTF-8 bytes (from the cluster log) as the same bytes as the text, and tells `appended`', () => {
    const seen: string[] = [];
    const hub = new LiveHub({ now: () => 42, retentionMs: 1_000, maxEvents: 10, appended: (e) => seen.push(e.id) });
    const json = JSON.stringify({ name: 'Société Générale €', body: 'two\nlines', n: 1.5 });
    const bytes = Buffer.from(`xx${json}yy`).subarray(2, -2); // a view into a larger reply, as XREAD's are
    const a = hub.append('analysis', 'analysis:bitcoin:d1', json, '50-0');
    const b = hub.append('analysis', 'analysis:bitcoin:d1', bytes, '50-1');
    expect(Buffer.from(b.frame).toString()).toBe(Buffer.from(a.frame).toString().replace('id: 50-0', 'id: 50-1'));
    expect(b.frame.byteLength).toBe(a.frame.byteLength);
    expect(seen).toEqual(['50-0', '50-1']);
  });
});
