/** The service's own track record: every plan it published, recorded before its outcome, and how it ended. */

import type { TrackRecordData } from '../backend.js';
import { lines, num, share, signed } from '../render.js';
import { defineTool, type ToolDefinition } from '../tool.js';

type Figures = TrackRecordData['total'];

const day = (t: string) => t.slice(0, 10);

const inR = (x: number | null) => (x === null ? 'unavailable' : `${signed(x, 2)}R`);

/** One line of figures: plans, outcomes, resolved, hit rate, mean and total R, and the dates covered. */
function renderFigures(label: string, f: Figures): string {
  const outcomes = Object.entries(f.counts)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  const range =
    f.first_published_at === null || f.last_published_at === null
      ? ''
      : `; published ${day(f.first_published_at)} to ${day(f.last_published_at)}`;
  return `${label}: ${f.plans} plans${outcomes === '' ? '' : ` (${outcomes})`}; resolved ${f.resolved}, hit rate ${share(f.hit_rate)}, mean ${inR(f.mean_realized_r)} (total ${inR(f.total_realized_r)})${range}`;
}

function renderCalibration(f: Figures): string {
  const buckets = f.calibration.map(
    (b) =>
      `${num(b.confidence_min, 1)}-${num(b.confidence_max, 1)}: hit rate ${share(b.hit_rate)} of ${b.resolved} resolved (mean confidence ${share(b.mean_confidence)})`,
  );
  return `Calibration: ${buckets.join('; ')}`;
}

type Stats = TrackRecordData['live']['stats'];

/**
 * One line of audit figures: resolved calls, hit rate with its interval against the break-even hit
 * rate, expected against realized R (with the intervals known), maximum drawdown, dates covered.
 */
export function renderStats(s: Stats): string {
  if (s.count === 0 || s.hit_rate === null || s.realized_r === null) return 'no call entered and closed';
  const level = share(s.level);
  const hit = `hit rate ${share(s.hit_rate.mean)} [${share(s.hit_rate.low)}, ${share(s.hit_rate.high)}]`;
  const even = s.break_even_hit_rate === null ? '' : ` against a break-even of ${share(s.break_even_hit_rate)}`;
  const e = s.expected_r;
  const expected =
    e === null
      ? ''
      : `expected ${inR(e.mean)}${e.low === null || e.high === null ? '' : ` [${inR(e.low)}, ${inR(e.high)}]`}, `;
  const realized = `realized ${inR(s.realized_r.mean)} [${inR(s.realized_r.low)}, ${inR(s.realized_r.high)}]`;
  const range = s.from === null || s.to === null ? '' : `; ${day(s.from)} to ${day(s.to)}`;
  return `${s.count} resolved, ${hit}${even}; ${expected}${realized} per call (${level} intervals); max drawdown ${num(s.max_drawdown_r, 2)}R${range}`;
}

function renderBacktest(b: TrackRecordData['backtest']): (string | null)[] {
  if (b.status === 'pending') return [`Backtest (pending): ${b.label}`];
  return [
    `Backtest (simulated, not live trading; as of ${b.as_of}): ${b.calls} calls in ${b.analyses} analyses (${b.call_share === null ? 'no analyses' : `${num(b.call_share * 100, 2)}%`}); ${renderStats(b.total)}`,
    ...b.series.map(
      (x) =>
        `- backtest ${x.asset_id} ${x.timeframe} (cost ${num(x.cost_pct, 3)}%): ${x.error === null ? `${x.calls} calls in ${x.analyses} analyses; ${renderStats(x.stats)}` : `not read: ${x.error}`}`,
    ),
  ];
}

const getTrackRecord = defineTool({
  name: 'get_track_record',
  title: "The service's track record",
  description:
    "How every trade plan the service published ended: each plan is recorded when published, before its outcome is known, and scored on the candles after it with its asset class's round-trip cost. By timeframe and asset class, and in total: plans and counts by outcome (pending, entered, tp_hit, stopped_out, time_stopped, expired), resolved (entered and closed), hit rate (tp_hit / resolved), mean and total realized R after the cost, calibration (confidence buckets against their hit rate) and the dates covered. `live` audits the resolved plans: hit rate against the break-even hit rate, expected against realized R with intervals, maximum drawdown in R. Beside it, labelled and never mixed in, `backtest` (kind backtest): a walk-forward of the signal over the stored candles of each served asset and timeframe, out of sample after the calibration's window, with the same audit and how many analyses published a call. Filter by timeframe and asset_class. The same figures as the public GET /v2/track-record.",
  operation: 'analysis.trackRecord',
  text(r) {
    const scope = [r.timeframe, r.asset_class].filter((x) => x !== null).join(' ');
    return lines(
      `Track record of the published plans${scope === '' ? '' : ` (${scope})`}, after ${r.cost_pct === null ? "each asset class's round-trip cost" : `a ${num(r.cost_pct, 3)}% round-trip cost`}, as of ${r.as_of}`,
      renderFigures('All', r.total),
      r.total.plans > 0 ? renderCalibration(r.total) : null,
      ...r.groups.map((g) => renderFigures(`- ${g.timeframe} ${g.asset_class} (cost ${num(g.cost_pct, 3)}%)`, g)),
      `Live audit: ${renderStats(r.live.stats)}`,
      ...renderBacktest(r.backtest),
    );
  },
});

/** The track-record tools, in catalog order. */
export const TRACK_RECORD_TOOLS: readonly ToolDefinition[] = [getTrackRecord];
