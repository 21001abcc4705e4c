// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// technicalRating rebuilt vote by vote from the rules in its documentation (TradingView's
// Technical Ratings) over drawn series, then the group counts, means and labels.
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

/** The 15 moving-average votes and the 11 oscillator votes at bar `i`, by the documented rules. */
function votesByHand(c: Candles, i: number): { ma: RatingVote[]; osc: RatingVote[] } {
  const ctx = computeContext(c);
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
