/** The service's own track record: every plan it published, recorded before its outcome, and how it ended. */

import { ServiceTrackRecordSchema, TrackRecordInput } from '@marketlens/contract';
import type { TrackRecordData } from '../backend.js';
import { lines, num, share, signed } from '../render.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../tool.js';

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

const getTrackRecord = defineTool({
  name: 'get_track_record',
  title: "The service's track record",
  description:
    'How every trade plan the service published ended: each plan is recorded when published, before its outcome is known, and scored on the candles after it with a 0.20% round-trip cost. By timeframe and asset class, and in total: plans and counts by outcome (pending, entered, tp_hit, stopped_out, time_stopped, expired), resolved (entered and closed), hit rate (tp_hit / resolved), mean and total realized R after the cost, calibration (confidence buckets against their hit rate) and the dates covered. Filter by timeframe and asset_class. The same figures as the public GET /v2/track-record.',
  input: TrackRecordInput,
  output: ServiceTrackRecordSchema,
  needs: 'market',
  annotations: READ_ONLY,
  async run(b, input) {
    const r = await b.market.trackRecord({
      ...(input.timeframe === undefined ? {} : { timeframe: input.timeframe }),
      ...(input.asset_class === undefined ? {} : { asset_class: input.asset_class }),
    });
    const scope = [r.timeframe, r.asset_class].filter((x) => x !== null).join(' ');
    return {
      data: { ...r },
      text: lines(
        `Track record of the published plans${scope === '' ? '' : ` (${scope})`}, after ${r.cost_pct === null ? "each asset class's round-trip cost" : `a ${num(r.cost_pct, 3)}% round-trip cost`}, as of ${r.as_of}`,
        renderFigures('All', r.total),
        r.total.plans > 0 ? renderCalibration(r.total) : null,
        ...r.groups.map((g) => renderFigures(`- ${g.timeframe} ${g.asset_class} (cost ${num(g.cost_pct, 3)}%)`, g)),
      ),
    };
  },
});

/** The track-record tools, in catalog order. */
export const TRACK_RECORD_TOOLS: readonly ToolDefinition[] = [getTrackRecord];
