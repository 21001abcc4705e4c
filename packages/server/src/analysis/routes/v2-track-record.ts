import { AssetIdParams, AssetTrackRecordQuery, CALIBRATION_BUCKETS, TrackRecordQuery } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';
import { SERVICE_RECORD_TTL_MS } from '../plans/service-record.js';

/** The service's own track record, overall and by asset. */
export const trackRecordRoutes = restTable('Analysis', {
  'analysis.assetTrackRecord': [
    {
      get: '/v2/analysis/{asset_id}/track-record',
      id: 'getAssetTrackRecord',
      params: AssetIdParams,
      query: AssetTrackRecordQuery,
      ok: ['The track record', 'PlanTrackRecordEnvelope'],
      errors: [402],
    },
    "The service's own track record on an asset: its published plans' outcomes",
    'Every plan the service publishes (a plan with a trade, once per asset, timeframe and candle it was computed on) is recorded at publication and scored afterwards on the candles that open after it, with the round-trip cost of its asset class (`cost_pct`): `pending`, then `entered` or `expired`; an entered plan ends `tp_hit` (target 1 reached), `stopped_out` or `time_stopped`. Counts by outcome, mean realized R, and calibration (confidence buckets against the hit rate); `live`, the audit of the resolved plans (hit rate against the break-even hit rate, expected against realized R with intervals, maximum drawdown in R, dates); `backtest` (kind `backtest`), the walk-forward of this asset on the timeframe when it is among the served series the background job walks. The timeframe gate of the analysis applies (402, code 1004). Unknown asset: 400 `UnknownAsset`.',
  ],
  'analysis.trackRecord': [
    // The same for every caller: shared caches may keep it as long as the server does.
    {
      get: '/v2/track-record',
      id: 'getServiceTrackRecord',
      query: TrackRecordQuery,
      ok: ['The track record', 'ServiceTrackRecordEnvelope'],
      cacheControl: `public, max-age=${SERVICE_RECORD_TTL_MS / 1000}`,
    },
    "The service's own track record: how every plan it published ended, by timeframe and asset class",
    `Public: no credential needed (the anonymous request budget applies), so anyone can judge the signals by their record. Every trade plan the service publishes is recorded when it is published, before its outcome is known, and scored afterwards on the candles that open after the publication, with its asset class's round-trip cost (each group's \`cost_pct\`): \`pending\`, then \`entered\` or \`expired\` (never filled in its entry window); an entered plan ends \`tp_hit\` (target 1 reached), \`stopped_out\` or \`time_stopped\`. Per timeframe and asset class, and in \`total\`: \`plans\` published and \`counts\` by outcome; \`resolved\`, the plans entered and closed; \`hit_rate\` = tp_hit / resolved; \`mean_realized_r\`, the mean size-weighted result of the resolved plans in R (multiples of the entry-to-stop risk), after the cost, and \`total_realized_r\` their sum; \`calibration\`, plans in ${CALIBRATION_BUCKETS} confidence buckets with the hit rate of the resolved ones beside their mean confidence (a calibrated signal has them close); \`first_published_at\` and \`last_published_at\`, the range the figures cover. Rates and means are null when nothing resolved. \`live\` (\`kind: 'live'\`) audits the resolved plans: \`count\`, \`hit_rate\` with its interval against \`break_even_hit_rate\` (the hit rate at which the plans earn 0 R after costs), \`expected_r\` (what the calls were published with) against \`realized_r\` with its interval, \`max_drawdown_r\` and the dates \`from\`/\`to\`. Beside it, never mixed in, \`backtest\` (\`kind: 'backtest'\`, and its \`label\` says so): a walk-forward of today's signal over the newest stored candles of each served asset and timeframe (those with published plans, the pilot's, the first assets on d1), each candle analysed on the candles up to it, only candles after the calibration's training window (\`out_of_sample_since\`), calls scored as the live ones; the same audit figures, with \`analyses\`, \`calls\` and \`call_share\` (how rarely the signal publishes a call). A background job refreshes it (\`as_of\`); \`status: 'pending'\` until its first run ends. Filters: \`timeframe\`, \`asset_class\` (both records); an invalid value is 400 \`InvalidRequest\`. The live figures are recomputed at most once a minute (\`as_of\`).`,
  ],
});
