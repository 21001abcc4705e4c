// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// technicalRating rebuilt vote by vote from the rules in its documentation (TradingView's
// Technical Ratings) over drawn series, then the group counts, means and labels; the same rules
// where their inputs sit exactly on a bound or tie (columns set in the context's cache), and the
// Ichimoku vote on hand-built candles at each of its strict comparisons.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candleSeries, toColumns } from '../testing/props.js';
import type { Candles } from '../types.js';
import { computeContext } from './context.js';
import { type RatingLabel, type RatingVote, ratingLabel, technicalRating } from './technical-rating.js';

const fin = (x: number) => Number.isFinite(x);
const val = (x: number) => (fin(x) ? x + 0 : null);
const vote = (defined: boolean, buy: boolean, sell: boolean): RatingVote['vote'] =>
  defined ? (buy ? 1 : sell ? -1 : 0) : null;

/**
 * The 15 moving-average votes and the 11 oscillator votes at bar `i`, by the documented rules, from
 * the columns of `ctx` (by default computed from the candles).
 */
function votesByHand(c: Candles, i: number, ctx = computeContext(c)): { ma: RatingVote[]; osc: RatingVote[] } {
  const close = c.close[i];
  const prevClose = i > 0 ? c.close[i - 1] : Number.NaN;
  const ma: RatingVote[] = [];
  const maVote = (name: string, m: number) =>
    ma.push({ name, value: val(m), vote: vote(fin(m), m < close, m > close) });
  for (const p of [10, 20, 30, 50, 100, 200]) maVote(`sma_${p}`, ctx.sma(p)[i]);
  for (const p of [10, 20, 30, 50, 100, 200]) maVote(`ema_${p}`, ctx.ema(p)[i]);
  maVote('hma_9', ctx.hma(9)[i]);
  maVote('vwma_20', ctx.vwma(20)[i]);
  const mid = (n: number) => (ctx.highest(n, i) + ctx.lowest(n, i)) / 2;
  const conv = mid(9);
  const base = mid(26);
  const lead1 = (conv + base) / 2;
  const lead2 = mid(52);
  ma.push({
    name: 'ichimoku',
    value: val(base),
    vote: vote(
      [lead1, lead2, prevClose, base, conv].every(fin),
      lead1 > lead2 && close > lead1 && close < base && prevClose < conv && close > conv,
      lead2 > lead1 && close < lead2 && close > base && prevClose > conv && close < conv,
    ),
  });

  // x[0] at bar i, x[1] at bar i - 1
  const two = (col: ArrayLike<number>): [number, number] => [col[i], i > 0 ? col[i - 1] : Number.NaN];
  const osc: RatingVote[] = [];
  const push = (name: string, v: number, inputs: number[], buy: boolean, sell: boolean) =>
    osc.push({ name, value: val(v), vote: vote(inputs.every(fin), buy, sell) });
  const [r0, r1] = two(ctx.rsi(14));
  push('rsi_14', r0, [r0, r1], r0 < 30 && r0 > r1, r0 > 70 && r0 < r1);
  const [k0, k1] = two(ctx.stoch().k);
  const [d0, d1] = two(ctx.stoch().d);
  push(
    'stoch_14_3_3',
    k0,
    [k0, d0, k1, d1],
    k0 < 20 && d0 < 20 && k0 > d0 && k1 < d1,
    k0 > 80 && d0 > 80 && k0 < d0 && k1 > d1,
  );
  const [c0, c1] = two(ctx.cciClose(20));
  push('cci_20', c0, [c0, c1], c0 < -100 && c0 > c1, c0 > 100 && c0 < c1);
  const dmi = ctx.dmi(14);
  const [a0] = two(dmi.adx);
  const [p0, p1] = two(dmi.plusDI);
  const [m0, m1] = two(dmi.minusDI);
  push('adx_14', a0, [a0, p0, m0, p1, m1], a0 > 20 && p1 < m1 && p0 > m0, a0 > 20 && p1 > m1 && p0 < m0);
  const ao = ctx.ao();
  const [o0, o1] = two(ao);
  const o2 = i > 1 ? ao[i - 2] : Number.NaN;
  push(
    'ao',
    o0,
    [o0, o1],
    (o0 > 0 && o1 <= 0) || (o0 > 0 && o1 > 0 && o0 > o1 && o2 > o1),
    (o0 < 0 && o1 >= 0) || (o0 < 0 && o1 < 0 && o0 < o1 && o2 < o1),
  );
  const [mo0, mo1] = two(ctx.mom(10));
  push('mom_10', mo0, [mo0, mo1], mo0 > mo1, mo0 < mo1);
  const md = ctx.macd();
  push('macd_12_26_9', md.macd[i], [md.macd[i], md.signal[i]], md.macd[i] > md.signal[i], md.macd[i] < md.signal[i]);
  const ema50 = ctx.ema(50)[i];
  const [sk0, sk1] = two(ctx.stochRsi().k);
  const [sd0, sd1] = two(ctx.stochRsi().d);
  push(
    'stoch_rsi_3_3_14_14',
    sk0,
    [ema50, sk0, sd0, sk1, sd1],
    close < ema50 && sk0 < 20 && sd0 < 20 && sk0 > sd0 && sk1 < sd1,
    close > ema50 && sk0 > 80 && sd0 > 80 && sk0 < sd0 && sk1 > sd1,
  );
  const [w0, w1] = two(ctx.willr(14));
  push('williams_r_14', w0, [w0, w1], w0 < -80 && w0 > w1, w0 > -20 && w0 < w1);
  const [e0, e1] = two(ctx.ema(13));
  const bull0 = c.high[i] - e0;
  const bear0 = c.low[i] - e0;
  const bull1 = i > 0 ? c.high[i - 1] - e1 : Number.NaN;
  const bear1 = i > 0 ? c.low[i - 1] - e1 : Number.NaN;
  push(
    'bull_bear_power_13',
    bull0 + bear0,
    [ema50, bull0, bear0, bull1, bear1],
    close > ema50 && bear0 < 0 && bear0 > bear1,
    close < ema50 && bull0 > 0 && bull0 < bull1,
  );
  const uo = ctx.ultOsc()[i];
  push('uo_7_14_28', uo, [uo], uo > 70, uo < 30);
  return { ma, osc };
}

function groupByHand(votes: RatingVote[]) {
  const buy = votes.filter((v) => v.vote === 1).length;
  const sell = votes.filter((v) => v.vote === -1).length;
  const neutral = votes.filter((v) => v.vote === 0).length;
  const cast = buy + sell + neutral;
  const value = cast > 0 ? (buy - sell) / cast : null;
  return { value, rating: value === null ? null : ratingLabel(value), buy, neutral, sell, votes };
}

describe('technicalRating against its documentation', () => {
  it('casts every vote by its rule, then counts, averages and labels them', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(candleSeries(1, 260), fc.nat(), (rows, cut) => {
        const c = toColumns(rows);
        const i = Math.max(0, rows.length - 1 - (cut % 30));
        const got = technicalRating(c, { asOf: i });
        const { ma, osc } = votesByHand(c, i);
        const maGroup = groupByHand(ma);
        const oscGroup = groupByHand(osc);
        expect(got.moving_averages).toEqual(maGroup);
        expect(got.oscillators).toEqual(oscGroup);
        const values = [maGroup.value, oscGroup.value].filter((v): v is number => v !== null);
        const value = values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
        expect(got.value).toBe(value);
        expect(got.rating).toBe(value === null ? null : ratingLabel(value));
        expect(got.reason).toBe(value === null ? 'insufficient_data' : undefined);
        for (const v of [...ma, ...osc]) if (v.vote !== null && v.vote !== 0) seen.add(`${v.name}:${v.vote}`);
      }),
      // no shrinking: a failure is reported at once (a mutation run would spend its time shrinking)
      { numRuns: 150, endOnFailure: true },
    );
    // most rules cast both ways in the draws
    expect(seen.size).toBeGreaterThan(25);
  });

  it('labels with the bounds on the neutral side', () => {
    const cases: [number, RatingLabel][] = [
      [0.5000001, 'strong_buy'],
      [0.5, 'buy'],
      [0.1000001, 'buy'],
      [0.1, 'neutral'],
      [-0.1, 'neutral'],
      [-0.1000001, 'sell'],
      [-0.5, 'sell'],
      [-0.5000001, 'strong_sell'],
    ];
    for (const [v, label] of cases) expect(ratingLabel(v), String(v)).toBe(label);
  });
});

/** Candles whose highs and lows give the Ichimoku lines below, each closing mid-range but the last two. */
function ichimokuCandles(last: number, prev: number, lastHigh: number, oldLow: number): Candles {
  // 60 bars, the vote at the last: bars 8..33 (the 52-bar window beyond the 26-bar one) span
  // oldLow..100, bars 34..50 span 100..120, the last 9 span 96..106 (the last one up to lastHigh)
  const rows = Array.from({ length: 60 }, (_, k) => {
    const [low, high] = k < 34 ? [oldLow, 100] : k < 51 ? [100, 120] : [96, k === 59 ? lastHigh : 106];
    const close = k === 59 ? last : k === 58 ? prev : (low + high) / 2;
    return { time: k * 3_600_000, open: close, high, low, close, volume: 1 };
  });
  return toColumns(rows);
}

/** The price series mirrored as `p -> 200 - p`. */
function mirror(c: Candles): Candles {
  const f = (x: Float64Array) => x.map((v) => 200 - v);
  return { ...c, open: f(c.open), high: f(c.low), low: f(c.high), close: f(c.close) };
}

describe('technicalRating: the Ichimoku vote at its bounds', () => {
  const ichimoku = (c: Candles) => technicalRating(c).moving_averages.votes.find((v) => v.name === 'ichimoku')?.vote;

  it('buys only with every condition strict, and sells in the mirror', () => {
    // conv = (106 + 96) / 2 = 101, base = (120 + 96) / 2 = 108, lead1 = 104.5, lead2 = (120 + 60) / 2 = 90
    // [candles, vote, vote of the mirrored candles]; the sell rule compares the close with lead2 where
    // the buy compares it with lead1 (the built-in's rules), so a close at lead1 still sells mirrored
    const cases: [Candles, number, number][] = [
      [ichimokuCandles(106, 98, 106, 60), 1, -1], // every condition holds
      [ichimokuCandles(104.5, 98, 106, 60), 0, -1], // close = lead1
      [ichimokuCandles(106, 101, 106, 60), 0, 0], // previous close = conversion
      [ichimokuCandles(106, 98, 106, 89), 0, 0], // lead2 = (120 + 89) / 2 = lead1
      // high 108: conv 102, lead1 105, close 108 = base
      [ichimokuCandles(108, 98, 108, 60), 0, 0],
      [ichimokuCandles(107.5, 98, 108, 60), 1, -1],
      // lead2 = (120 + 86) / 2 = 103: a close at lead2, then between lead2 and lead1
      [ichimokuCandles(103, 98, 106, 86), 0, 0],
      [ichimokuCandles(103.5, 98, 106, 86), 0, -1],
      // a close at the conversion line (101), then just above it: mirrored, at and just below
      [ichimokuCandles(101, 98, 106, 60), 0, 0],
      [ichimokuCandles(101.5, 98, 106, 60), 0, -1],
    ];
    for (const [c, want, mirrored] of cases) {
      expect(ichimoku(c)).toBe(want);
      expect(ichimoku(mirror(c))).toBe(mirrored);
    }
  });
});

const N = 60;

const offsets = [Number.NaN, -2, -2, -1, -1, 0, 1, 1, 2, 2];
const offsetsArb = fc.array(fc.constantFrom(...offsets), { minLength: N, maxLength: N, size: 'max' });

/** `count` columns of N values within 2 of one centre drawn from `centres` (NaN now and then). */
const near = (centres: number[], count: number, of = offsetsArb): fc.Arbitrary<Float64Array[]> =>
  fc
    .record({ centre: fc.constantFrom(...centres), cols: fc.array(of, { minLength: count, maxLength: count }) })
    .map(({ centre, cols }) => cols.map((o) => Float64Array.from(o, (d) => centre + d)));
/** For %K and %D: wider and never NaN, so that both lie beyond a bound and cross in more draws. */
const crossing = fc.array(fc.integer({ min: -3, max: 3 }), { minLength: N, maxLength: N, size: 'max' });
const column = (centres: number[]): fc.Arbitrary<Float64Array> => near(centres, 1).map(([c]) => c);
/** The MAs, EMA(50) and EMA(13): offsets from the close. */
const small = [0];

/**
 * A context over N candles on an integer grid with every column the rating reads put in its cache
 * (`memo`), drawn within 2 of each rule's bounds (RSI 28..32 and 68..72, ...), so that a value sits on a
 * bound or ties with the one it is compared with in many draws.
 */
const injectedArb = fc
  .record({
    close: fc.array(fc.integer({ min: 98, max: 102 }), { minLength: N, maxLength: N, size: 'max' }),
    up: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: N, maxLength: N, size: 'max' }),
    down: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: N, maxLength: N, size: 'max' }),
    ma: near(small, 16),
    noMa: fc.boolean(),
    trend: column(small),
    e13: column(small),
    rsi: column([30, 70]),
    kd: near([20, 80], 2, crossing),
    cci: column([-100, 100]),
    adx: column([20]),
    di: near([20], 2),
    ao: column(small),
    mom: column(small),
    macd: column(small),
    signal: column(small),
    skd: near([20, 80], 2, crossing),
    willr: column([-80, -20]),
    uo: column([30, 70]),
    at: fc.constantFrom(1, 2, 30, N - 1),
  })
  .map((x) => {
    const c = toColumns(
      x.close.map((close, k) => ({
        time: k * 60_000,
        open: close,
        high: close + x.up[k],
        low: close - x.down[k],
        close,
        volume: 1,
      })),
    );
    const ctx = computeContext(c);
    const offset = (col: Float64Array): Float64Array => col.map((v, k) => c.close[k] + v);
    const put = (key: string, v: unknown): void => {
      ctx.memo(key, () => v);
    };
    let m = 0;
    const maCol = (): Float64Array => (x.noMa ? new Float64Array(N).fill(Number.NaN) : offset(x.ma[m++]));
    for (const p of [10, 20, 30, 50, 100, 200]) put(`sma:${p}`, maCol());
    for (const p of [10, 20, 30, 100, 200]) put(`ema:${p}`, maCol());
    put('hma:9', maCol());
    put('vwma:20', maCol());
    put('ema:50', x.noMa ? maCol() : offset(x.trend));
    put('ema:13', offset(x.e13));
    put('rsi:14', x.rsi);
    put('stoch', { k: x.kd[0], d: x.kd[1] });
    put('cciclose:20', x.cci);
    put('dmi:14', { adx: x.adx, plusDI: x.di[0], minusDI: x.di[1] });
    put('ao', x.ao);
    put('mom:10', x.mom);
    put('macd', { macd: x.macd, signal: x.signal, histogram: x.macd.map((v, k) => v - x.signal[k]) });
    put('stochrsi', { k: x.skd[0], d: x.skd[1] });
    put('willr:14', x.willr);
    put('ultosc', x.uo);
    return { c, ctx, i: x.at };
  });

describe('technicalRating: every rule at its bounds, from injected columns', () => {
  it('casts each vote by its rule where the inputs sit on the bounds and tie', () => {
    const seen = new Map<string, number>();
    let draws = 0;
    fc.assert(
      fc.property(injectedArb, ({ c, ctx, i }) => {
        const got = technicalRating(ctx, { asOf: i });
        const { ma, osc } = votesByHand(c, i, ctx);
        const maGroup = groupByHand(ma);
        const oscGroup = groupByHand(osc);
        expect(got.moving_averages).toEqual(maGroup);
        expect(got.oscillators).toEqual(oscGroup);
        const values = [maGroup.value, oscGroup.value].filter((v): v is number => v !== null);
        const value = values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
        expect(got.value).toBe(value);
        draws++;
        for (const v of osc)
          if (v.vote !== null && v.vote !== 0)
            seen.set(`${v.name}:${v.vote}`, 1 + (seen.get(`${v.name}:${v.vote}`) ?? 0));
      }),
      { numRuns: 3000, endOnFailure: true },
    );
    // every oscillator rule casts both ways: most in 1% to 30% of the draws, the Stochastic RSI's
    // five conditions in about 0.3% (about 9 draws each way)
    for (const v of oscillatorNames) {
      for (const side of [1, -1]) expect(seen.get(`${v}:${side}`) ?? 0, `${v}:${side}`).toBeGreaterThan(0);
    }
    expect([...seen.values()].filter((k) => k > draws / 100).length).toBeGreaterThanOrEqual(16);
  });
});

const oscillatorNames = [
  'rsi_14',
  'stoch_14_3_3',
  'cci_20',
  'adx_14',
  'ao',
  'mom_10',
  'macd_12_26_9',
  'stoch_rsi_3_3_14_14',
  'williams_r_14',
  'bull_bear_power_13',
  'uo_7_14_28',
];
