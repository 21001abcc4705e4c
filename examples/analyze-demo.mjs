// A full analysis with @marketlens/core on the embedded default, the simulated venue of
// @marketlens/exchanges (offline, deterministic, live clock), as the server computes it: on the
// closed candles only (the candle still forming is left out, and its price shown as the mark), so
// this prints what `GET /v2/analysis/<asset-id>` answers for the same candle.
//   node analyze-demo.mjs [asset-id] [--tf d1] [--locale es] [--json]
//   node analyze-demo.mjs --file prices.csv      (any Yahoo / Binance / generic CSV or ccxt JSON)
import { analyze, overviewFacts, renderOverview } from '@marketlens/core';
import { createSimulatedVenue, importCandleFile, splitClosed } from '@marketlens/exchanges';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const locale = flag('locale') ?? 'en';
const timeframe = flag('tf') ?? 'd1';
const file = flag('file');
const json = args.includes('--json');
const assetId = args.find((a) => !a.startsWith('--')) ?? 'bitcoin';

let candles;
let source;
let live = null;
if (file) {
  ({ candles } = await importCandleFile(file));
  source = file;
} else {
  const venue = createSimulatedVenue();
  const series = await venue.candles({ asset_id: assetId, timeframe, limit: 1001 });
  // On bar close, as the server: the candle still forming is not analysed.
  ({ closed: candles, live } = splitClosed(series.candles, timeframe, Date.now(), 1000));
  source = `${assetId} ${timeframe} ${series.market_type} ${series.pair} on the simulated venue (offline, deterministic)`;
}
const a = analyze(candles);
if (json) {
  console.log(JSON.stringify(a, null, 2));
  process.exit(0);
}

const fmt = (x, d = 2) => (x == null ? 'n/a' : Number(x).toFixed(d));
const ind = a.indicators;
const utc = (ms) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
console.log(`marketlens analysis: ${source}`);
console.log(
  `for the candle opened ${utc(candles.time[candles.time.length - 1])} (the last closed one), ${candles.close.length} candles` +
    (live
      ? `; the live candle opened ${utc(live.time)} is left out (mark ${fmt(live.price)}), as the server does`
      : ''),
);
console.log('');
console.log(
  `close ${fmt(ind.close)}  RSI(14) ${fmt(ind.rsi_14, 1)}  MACD hist ${fmt(ind.macd_histogram, 3)}  ADX(14) ${fmt(ind.adx_14, 1)}  ATR(14) ${fmt(ind.atr_14)}`,
);
const s = a.levels.nearest_support;
const r = a.levels.nearest_resistance;
console.log(
  `support    ${s ? `${fmt(s.low)}-${fmt(s.high)} (${fmt(s.distance_pct)}%, ${fmt(s.distance_atr)} ATR)` : 'none'}`,
);
console.log(
  `resistance ${r ? `${fmt(r.low)}-${fmt(r.high)} (+${fmt(r.distance_pct)}%, ${fmt(r.distance_atr)} ATR)` : 'none'}`,
);
console.log(
  `volume POC ${fmt(a.volume_profile.poc)}  value area ${fmt(a.volume_profile.value_area_low)}-${fmt(a.volume_profile.value_area_high)}`,
);
console.log('');
console.log(
  `signal     ${a.signal.action.toUpperCase()}  confidence ${fmt(a.signal.confidence)}  score ${fmt(a.signal.score, 3)}`,
);
for (const f of a.signal.factors) {
  console.log(`  ${f.name.padEnd(12)} score ${fmt(f.score, 2).padStart(6)}  weight ${fmt(f.weight, 3)}`);
}
console.log(`rating     ${a.technical_rating.rating} (${fmt(a.technical_rating.value, 3)})`);
console.log(`fear&greed ${a.fear_greed.score ?? 'n/a'} ${a.fear_greed.zone ?? ''}`);
console.log(
  `regime     ${a.regime.phase}${a.regime.transition ? ` (from ${a.regime.transition.from}, ${a.regime.transition.bars_ago} bars ago)` : ''}`,
);
const z = a.zone;
if (z.direction) {
  console.log(
    `zone       ${z.direction} entry ${fmt(z.entry_zone.low)}-${fmt(z.entry_zone.high)} stop ${fmt(z.stop_loss)}`,
  );
  for (const t of z.take_profits) console.log(`  target ${fmt(t.price)}  ${t.size_pct}%  R:R ${fmt(t.risk_reward)}`);
  console.log(`  horizon ${z.horizon_bars} bars`);
} else {
  console.log(`zone       no trade (${z.reason})`);
}
console.log('');
console.log(renderOverview(overviewFacts(a), locale));
