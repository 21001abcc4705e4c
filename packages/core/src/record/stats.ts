import { betaQuantile, EDGE_INTERVAL_LEVEL } from '../signal/calibration-edge.js';

/** One resolved call of a track record: a plan that was entered and closed. */
export interface RecordTrade {
  /** Open time (ms UTC) of the candle the call was made on. */
  time: number;
  /** When the position closed (ms UTC): the record's order, since a result is known only then. */
  closed_at: number;
  /** Size-weighted R after the round-trip cost (`simulatePlan`'s `realized_r`). */
  realized_r: number;
  /** Whether target 1 was reached before the stop (`tp_hit`). */
  hit: boolean;
  /** The probability of target 1 at which the plan breaks even after costs (`PlanEdge.break_even`); null unknown. */
  break_even: number | null;
  /** The expected R after costs the call was made with, and its interval's ends; null unknown. */
  expected_r: number | null;
  expected_r_low: number | null;
  expected_r_high: number | null;
}

/** A mean with a central interval. */
export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
}

/** The audit figures of a set of resolved calls (see {@link recordStats}). */
export interface RecordStats {
  /** Resolved calls (entered and closed). */
  count: number;
  /** Of those, target 1 reached before the stop. */
  hits: number;
  /** `hits / count` with its Jeffreys interval; null without calls. */
  hit_rate: MeanInterval | null;
  /** Mean break-even probability of the calls' plans: the hit rate at which they earn 0 R after costs; null unknown. */
  break_even_hit_rate: number | null;
  /**
   * Mean expected R after costs the calls were made with; `low`/`high` the means of their
   * intervals' ends, null when a call's interval is unknown. Null when a call's expected R is unknown.
   */
  expected_r: { mean: number; low: number | null; high: number | null } | null;
  /** Mean realized R after costs with its Student-t interval (low = high = mean for one call); null without calls. */
  realized_r: MeanInterval | null;
  /** Sum of the realized R. */
  total_r: number;
  /** Largest fall of the cumulative realized R from a running peak (the start, 0 R, included), in R; 0 without calls. */
  max_drawdown_r: number;
  /** First call's candle time and last call's closing time (ms UTC); null without calls. */
  from: number | null;
  to: number | null;
  /** Coverage of the intervals. */
  level: number;
}

/**
 * The largest peak-to-trough fall of the cumulative sum of `rs` (in order), with the start (0) as
 * a peak: `max over j of (max(0, S_0..S_j) - S_j)` where `S_j = rs[0] + ... + rs[j]`. Always >= 0;
 * 0 for an empty or never-falling sequence. Non-finite values are not allowed (they throw).
 */
export function maxDrawdownR(rs: ArrayLike<number>): number {
  let sum = 0;
  let peak = 0;
  let worst = 0;
  for (let j = 0; j < rs.length; j++) {
    const r = rs[j];
    if (!Number.isFinite(r)) throw new RangeError(`maxDrawdownR: rs[${j}] is not finite (${r})`);
    sum += r;
    if (sum > peak) peak = sum;
    if (peak - sum > worst) worst = peak - sum;
  }
  return worst;
}

/**
 * The two-sided Student-t quantile `t` with `P(|T| <= t) = level` on `df` degrees of freedom, from
 * the incomplete beta identity `P(|T| > t) = I_{df / (df + t^2)}(df / 2, 1 / 2)`.
 */
export function studentT(level: number, df: number): number {
  const x = betaQuantile(1 - level, df / 2, 0.5);
  return Math.sqrt((df * (1 - x)) / x);
}

/**
 * The mean of `xs` with its Student-t interval at `level` (default `EDGE_INTERVAL_LEVEL`, 0.9):
 * `mean +- t(level, n - 1) * sd / sqrt(n)`, `sd` the sample standard deviation. The interval of
 * one value is the value itself. Null for no values.
 */
export function meanInterval(xs: readonly number[], level: number = EDGE_INTERVAL_LEVEL): MeanInterval | null {
  const n = xs.length;
  if (n === 0) return null;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  if (n === 1) return { mean, low: mean, high: mean };
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  const half = studentT(level, n - 1) * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half };
}

/**
 * A hit rate `hits / n` with the central Jeffreys interval at `level`: the quantiles of
 * `Beta(hits + 1/2, n - hits + 1/2)`, widened to hold the rate itself. Null for `n = 0`.
 */
export function hitRateInterval(hits: number, n: number, level: number = EDGE_INTERVAL_LEVEL): MeanInterval | null {
  if (n === 0) return null;
  const rate = hits / n;
  const tail = (1 - level) / 2;
  return {
    mean: rate,
    low: Math.min(rate, betaQuantile(tail, hits + 0.5, n - hits + 0.5)),
    high: Math.max(rate, betaQuantile(1 - tail, hits + 0.5, n - hits + 0.5)),
  };
}

/**
 * The audit figures of a track record's resolved calls: their count and hit rate (Jeffreys
 * interval) beside the mean break-even probability of their plans, the mean expected R they were
 * made with beside the mean realized R (Student-t interval), the maximum drawdown of the realized
 * R taken in closing order (ties by call time) and the dates covered. Intervals are central at
 * `level` (default `EDGE_INTERVAL_LEVEL`, 0.9). A hit rate above the break-even and a realized
 * interval above 0 are what a record with an edge shows; the figures judge nothing themselves.
 */
export function recordStats(trades: readonly RecordTrade[], level: number = EDGE_INTERVAL_LEVEL): RecordStats {
  const ordered = [...trades].sort((a, b) => a.closed_at - b.closed_at || a.time - b.time);
  const n = ordered.length;
  const hits = ordered.reduce((h, t) => h + (t.hit ? 1 : 0), 0);
  const rs = ordered.map((t) => t.realized_r);
  const known = <K extends keyof RecordTrade>(k: K) => ordered.every((t) => t[k] !== null);
  const meanOf = (k: 'break_even' | 'expected_r' | 'expected_r_low' | 'expected_r_high') =>
    ordered.reduce((s, t) => s + (t[k] ?? 0), 0) / n;
  let from: number | null = null;
  let to: number | null = null;
  for (const t of ordered) {
    if (from === null || t.time < from) from = t.time;
    if (to === null || t.closed_at > to) to = t.closed_at;
  }
  return {
    count: n,
    hits,
    hit_rate: hitRateInterval(hits, n, level),
    break_even_hit_rate: n > 0 && known('break_even') ? meanOf('break_even') : null,
    expected_r:
      n > 0 && known('expected_r')
        ? {
            mean: meanOf('expected_r'),
            low: known('expected_r_low') ? meanOf('expected_r_low') : null,
            high: known('expected_r_high') ? meanOf('expected_r_high') : null,
          }
        : null,
    realized_r: meanInterval(rs, level),
    total_r: rs.reduce((s, r) => s + r, 0),
    max_drawdown_r: maxDrawdownR(rs),
    from,
    to,
    level,
  };
}
