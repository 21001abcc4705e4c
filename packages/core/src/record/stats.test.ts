import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reach } from '../testing/reach.js';
import { hitRateInterval, maxDrawdownR, meanInterval, type RecordTrade, recordStats, studentT } from './stats.js';

/** The drawdown by its definition: every pair of a running peak (the start included) and a later point. */
function drawdownByPairs(rs: readonly number[]): number {
  const sums = [0];
  for (const r of rs) sums.push(sums[sums.length - 1] + r);
  let worst = 0;
  for (let a = 0; a < sums.length; a++)
    for (let b = a; b < sums.length; b++) worst = Math.max(worst, sums[a] - sums[b]);
  return worst;
}

const r = fc.double({ min: -3, max: 5, noNaN: true, noDefaultInfinity: true });

describe('maxDrawdownR', () => {
  it('pins the worked cases: nothing, only gains, a loss from the start, a fall from a later peak', () => {
    expect(maxDrawdownR([])).toBe(0);
    expect(maxDrawdownR([1, 2, 0.5])).toBe(0);
    expect(maxDrawdownR([-1, -1])).toBe(2);
    // peak 3 after two wins, down to 0.5 after three losses, then a new high
    expect(maxDrawdownR([2, 1, -1, -1, -0.5, 4])).toBeCloseTo(2.5, 12);
    expect(() => maxDrawdownR([1, Number.NaN])).toThrow(RangeError);
  });

  it('equals the largest fall over every (peak, later point) pair, and is never negative', () => {
    const fell = reach('a sequence that falls below a running peak');
    fell.assert(
      fc.property(fc.array(r, { minLength: 1, maxLength: 40 }), (rs) => {
        const dd = maxDrawdownR(rs);
        fell.hitIf(dd > 0);
        expect(dd).toBeGreaterThanOrEqual(0);
        expect(dd).toBeCloseTo(drawdownByPairs(rs), 9);
      }),
      { atLeast: 0.5 },
    );
  });

  it('is at most the sum of the losses and at least the worst single loss', () => {
    const lost = reach('a sequence with a loss');
    lost.assert(
      fc.property(fc.array(r, { minLength: 1, maxLength: 40 }), (rs) => {
        const losses = rs.filter((x) => x < 0);
        if (!lost.hitIf(losses.length > 0)) return;
        const dd = maxDrawdownR(rs);
        expect(dd).toBeLessThanOrEqual(-losses.reduce((s, x) => s + x, 0) + 1e-9);
        expect(dd).toBeGreaterThanOrEqual(-Math.min(...losses) - 1e-9);
      }),
      { atLeast: 0.5 },
    );
  });
});

describe('studentT and meanInterval', () => {
  it('match the tables: t(0.9, 1) = 6.314, t(0.9, 10) = 1.812, t(0.95, 30) = 2.042, large df near 1.645', () => {
    expect(studentT(0.9, 1)).toBeCloseTo(6.3138, 3);
    expect(studentT(0.9, 10)).toBeCloseTo(1.8125, 3);
    expect(studentT(0.95, 30)).toBeCloseTo(2.0423, 3);
    expect(studentT(0.9, 100_000)).toBeCloseTo(1.6449, 3);
  });

  it('is the value for one value, nothing for none, and the textbook interval for a small sample', () => {
    expect(meanInterval([])).toBeNull();
    expect(meanInterval([0.7])).toEqual({ mean: 0.7, low: 0.7, high: 0.7 });
    // mean 2, sd 1, n = 3: 2 +- 2.920 / sqrt(3)
    const m = meanInterval([1, 2, 3], 0.9);
    expect(m?.mean).toBe(2);
    expect(m?.high).toBeCloseTo(2 + 2.919986 / Math.sqrt(3), 5);
    expect(m?.low).toBeCloseTo(2 - 2.919986 / Math.sqrt(3), 5);
  });

  it('holds the mean, symmetric around it, and narrows as the level falls', () => {
    const spread = reach('a sample with spread');
    spread.assert(
      fc.property(fc.array(r, { minLength: 2, maxLength: 60 }), (xs) => {
        const wide = meanInterval(xs, 0.95);
        const narrow = meanInterval(xs, 0.8);
        if (wide === null || narrow === null) throw new Error('two values have an interval');
        expect(wide.low).toBeLessThanOrEqual(wide.mean);
        expect(wide.high).toBeGreaterThanOrEqual(wide.mean);
        expect(wide.high - wide.mean).toBeCloseTo(wide.mean - wide.low, 9);
        if (spread.hitIf(wide.high > wide.low)) expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
      }),
      { atLeast: 0.5 },
    );
  });
});

describe('hitRateInterval', () => {
  it('holds the rate within [0, 1] and narrows with more calls at the same rate', () => {
    const inside = reach('a rate strictly inside (0, 1)');
    inside.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))),
        ([n, hits]) => {
          const few = hitRateInterval(hits, n);
          const many = hitRateInterval(hits * 4, n * 4);
          if (few === null || many === null) throw new Error('n > 0 has an interval');
          expect(few.mean).toBe(hits / n);
          expect(0 <= few.low && few.low <= few.mean && few.mean <= few.high && few.high <= 1).toBe(true);
          if (inside.hitIf(hits > 0 && hits < n)) expect(many.high - many.low).toBeLessThan(few.high - few.low);
        },
      ),
      { atLeast: 0.5 },
    );
    expect(hitRateInterval(0, 0)).toBeNull();
  });
});

describe('recordStats', () => {
  const trade = (over: Partial<RecordTrade>): RecordTrade => ({
    time: 0,
    closed_at: 0,
    realized_r: 0,
    hit: false,
    break_even: 0.3,
    expected_r: 0.1,
    expected_r_low: 0.02,
    expected_r_high: 0.2,
    ...over,
  });

  it('reads nothing from no calls', () => {
    expect(recordStats([])).toMatchObject({
      count: 0,
      hits: 0,
      hit_rate: null,
      break_even_hit_rate: null,
      expected_r: null,
      realized_r: null,
      total_r: 0,
      max_drawdown_r: 0,
      from: null,
      to: null,
    });
  });

  it('orders by closing time for the drawdown, averages the promises, spans call to last close', () => {
    const s = recordStats([
      trade({ time: 30, closed_at: 40, realized_r: 2, hit: true, break_even: 0.4, expected_r: 0.3 }),
      trade({ time: 10, closed_at: 20, realized_r: -1 }),
      trade({ time: 15, closed_at: 35, realized_r: -1.1 }),
    ]);
    expect(s.count).toBe(3);
    expect(s.hits).toBe(1);
    expect(s.hit_rate?.mean).toBeCloseTo(1 / 3, 12);
    expect(s.break_even_hit_rate).toBeCloseTo((0.4 + 0.3 + 0.3) / 3, 12);
    expect(s.expected_r).toEqual({
      mean: expect.closeTo((0.3 + 0.1 + 0.1) / 3, 12),
      low: expect.closeTo(0.02, 12),
      high: expect.closeTo(0.2, 12),
    });
    expect(s.total_r).toBeCloseTo(-0.1, 12);
    // closing order -1, -1.1, +2: down 2.1 from the start
    expect(s.max_drawdown_r).toBeCloseTo(2.1, 12);
    expect([s.from, s.to]).toEqual([10, 40]);
  });

  it("leaves what one call lacks unknown: the interval's ends of a live plan, any expected R or break-even", () => {
    const s = recordStats([trade({}), trade({ expected_r: 0.3, expected_r_low: null, expected_r_high: null })]);
    expect(s.expected_r).toEqual({ mean: expect.closeTo(0.2, 12), low: null, high: null });
    expect(s.break_even_hit_rate).toBeCloseTo(0.3, 12);
    const t = recordStats([trade({}), trade({ expected_r: null, break_even: null })]);
    expect(t.expected_r).toBeNull();
    expect(t.break_even_hit_rate).toBeNull();
    expect(t.realized_r).not.toBeNull();
  });

  it('agrees with its parts on any calls, the drawdown taken in closing order', () => {
    const calls = fc.array(
      fc.record({
        time: fc.integer({ min: 0, max: 1000 }),
        span: fc.integer({ min: 1, max: 50 }),
        realized_r: r,
        hit: fc.boolean(),
      }),
      { minLength: 1, maxLength: 30 },
    );
    const several = reach('more than one call');
    several.assert(
      fc.property(calls, (raw) => {
        several.hitIf(raw.length > 1);
        const trades = raw.map((x) =>
          trade({ time: x.time, closed_at: x.time + x.span, realized_r: x.realized_r, hit: x.hit }),
        );
        const s = recordStats(trades);
        const inOrder = [...trades].sort((a, b) => a.closed_at - b.closed_at || a.time - b.time);
        expect(s.max_drawdown_r).toBeCloseTo(drawdownByPairs(inOrder.map((t) => t.realized_r)), 9);
        expect(s.hits).toBe(trades.filter((t) => t.hit).length);
        expect(s.realized_r?.mean).toBeCloseTo(s.total_r / trades.length, 9);
        expect(s.from).toBe(Math.min(...trades.map((t) => t.time)));
        expect(s.to).toBe(Math.max(...trades.map((t) => t.closed_at)));
      }),
    );
  });
});
