import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, inWindow, type PageState, requestBounds, requestWindow, startState, type Timed } from './paging.js';
import type { PagingSpec } from './venues.js';

/**
 * A venue holding `records`: answers `[since, until]` with at most `pageSize` records, oldest first
 * (`asc`) or newest first (`desc`), and refuses a span longer than its window.
 */
function venue(records: readonly Timed[], spec: PagingSpec, end: number) {
  return (since: number, until: number | undefined): Timed[] => {
    const hi = until ?? end;
    if (spec.windowMs !== null && until !== undefined && until - since > spec.windowMs)
      throw new Error('window too long');
    const hits = records.filter((r) => r.time >= since && r.time <= hi);
    hits.sort((a, b) => (spec.order === 'asc' ? a.time - b.time : b.time - a.time) || a.id.localeCompare(b.id));
    return hits.slice(0, spec.pageSize);
  };
}

/** Drives the pager to the end; returns the ids collected and the number of requests. */
function readAll(records: readonly Timed[], spec: PagingSpec, since: number, end: number) {
  const ask = venue(records, spec, end);
  const seen: string[] = [];
  let state: PageState | null = startState(since);
  let requests = 0;
  while (state !== null) {
    if (++requests > 10_000) throw new Error('pager does not terminate');
    const window = requestWindow(spec, state, end);
    const bounds = requestBounds(window, state);
    const raw = ask(bounds.since, bounds.until);
    for (const r of inWindow(raw, window, state)) seen.push(r.id);
    state = advance(spec, state, window, raw, end);
  }
  return { seen, requests };
}

const arbSpec = fc.record({
  order: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  windowMs: fc.option(fc.integer({ min: 10, max: 400 }), { nil: null }),
  pageSize: fc.integer({ min: 2, max: 12 }),
});

/** Records over [0, 1000], at most `pageSize - 1` sharing a millisecond (a venue page can always move past one). */
function arbRecords(pageSize: number) {
  return fc
    .array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: pageSize - 1 })), { maxLength: 60 })
    .map((times) => {
      const out: Timed[] = [];
      const used = new Set<number>();
      for (const [time, count] of times) {
        if (used.has(time)) continue;
        used.add(time);
        for (let k = 0; k < count; k++) out.push({ id: `${time}-${k}`, time });
      }
      return out;
    });
}

describe('time-window paging', () => {
  it('returns every record of [since, end] exactly once, whatever the venue order, page size and window', () => {
    fc.assert(
      fc.property(
        arbSpec.chain((spec) =>
          fc.tuple(fc.constant(spec), arbRecords(spec.pageSize), fc.integer({ min: 0, max: 500 })),
        ),
        ([spec, records, since]) => {
          const end = 1000;
          const { seen } = readAll(records, spec, since, end);
          const expected = records.filter((r) => r.time >= since && r.time <= end).map((r) => r.id);
          expect([...seen].sort()).toEqual([...expected].sort());
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never asks a windowed venue for more than its window', () => {
    const spec: PagingSpec = { order: 'desc', windowMs: 100, pageSize: 3 };
    const records = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, time: i * 20 }));
    expect(() => readAll(records, spec, 0, 1000)).not.toThrow();
  });

  it('an empty history ends after walking the windows once', () => {
    const { requests } = readAll([], { order: 'asc', windowMs: 100, pageSize: 5 }, 0, 1000);
    expect(requests).toBe(11);
    expect(readAll([], { order: 'desc', windowMs: null, pageSize: 5 }, 0, 1000).requests).toBe(1);
  });
});
