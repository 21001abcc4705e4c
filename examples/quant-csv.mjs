// A quant script on a CSV file with @marketlens/core: load OHLCV columns, compute indicators
// in batch, and test a simple RSI mean-reversion rule with Bollinger confirmation.
//   node quant-csv.mjs path/to/file.csv   (Yahoo-style: Date,Open,High,Low,Close[,Adj Close],Volume)
// Without a path it writes the synthetic demo series to a temporary CSV and reads that back.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atr, bbands, rsi } from '@marketlens/core';
import { demoCandles } from './demo-series.mjs';

function writeDemoCsv() {
  const c = demoCandles(1500);
  const lines = ['Date,Open,High,Low,Close,Volume'];
  for (let i = 0; i < c.close.length; i++) {
    const d = new Date(c.time[i]).toISOString().slice(0, 10);
    lines.push([d, c.open[i], c.high[i], c.low[i], c.close[i], c.volume[i]].join(','));
  }
  const file = join(mkdtempSync(join(tmpdir(), 'marketlens-')), 'demo.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Reads a header-named OHLCV CSV into Float64Array columns. */
function readCsv(file) {
  const [header, ...rows] = readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const names = header.split(',').map((h) => h.trim().toLowerCase());
  const col = (name) => names.indexOf(name);
  const idx = {
    date: col('date'),
    open: col('open'),
    high: col('high'),
    low: col('low'),
    close: col('close'),
    volume: col('volume'),
  };
  for (const [k, v] of Object.entries(idx)) if (v < 0) throw new Error(`${file}: no "${k}" column`);
  const n = rows.length;
  const out = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  rows.forEach((line, i) => {
    const f = line.split(',');
    out.time[i] = Date.parse(f[idx.date]);
    for (const k of ['open', 'high', 'low', 'close', 'volume']) out[k][i] = Number(f[idx[k]]);
  });
  return out;
}

const file = process.argv[2] ?? writeDemoCsv();
const label = process.argv[2] ? file : `${file} (synthetic demo series)`;
const c = readCsv(file);
const r = rsi(c.close, { period: 14 });
const bb = bbands(c.close, { period: 20, stdDev: 2 });
const a = atr(c, { period: 14 });

// Enter long when RSI < 30 and the close is below the lower band; exit when RSI > 50,
// or at a 2 ATR stop. Costs: 0.20% round trip.
const trades = [];
let entry = -1;
let stop = 0;
for (let i = 1; i < c.close.length; i++) {
  if (Number.isNaN(r[i]) || Number.isNaN(bb.lower[i]) || Number.isNaN(a[i])) continue;
  if (entry < 0 && r[i] < 30 && c.close[i] < bb.lower[i]) {
    entry = i;
    stop = c.close[i] - 2 * a[i];
  } else if (entry >= 0 && (r[i] > 50 || c.low[i] <= stop)) {
    const exit = c.low[i] <= stop ? Math.min(stop, c.open[i]) : c.close[i];
    trades.push({ bars: i - entry, ret: (exit / c.close[entry] - 1) * 100 - 0.2 });
    entry = -1;
  }
}
const wins = trades.filter((t) => t.ret > 0).length;
const mean = trades.reduce((s, t) => s + t.ret, 0) / Math.max(1, trades.length);
console.log(`file       ${label}`);
console.log(`candles    ${c.close.length}`);
console.log(
  `last       close ${c.close.at(-1).toFixed(2)}  RSI ${r.at(-1).toFixed(2)}  %B ${bb.percentB.at(-1).toFixed(3)}  ATR ${a.at(-1).toFixed(2)}`,
);
console.log(`rule       RSI<30 below lower band, exit RSI>50 or 2 ATR stop, 0.20% cost`);
console.log(
  `trades     ${trades.length}  wins ${wins}  mean return ${mean.toFixed(2)}%  mean bars ${(trades.reduce((s, t) => s + t.bars, 0) / Math.max(1, trades.length)).toFixed(1)}`,
);
