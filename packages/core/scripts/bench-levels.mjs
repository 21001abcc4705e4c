// Support/resistance speed: supportResistance() on the first 1,000 candles of a real series
// (target: median under 1 ms). The timing lives here, not in a test, so a loaded machine never
// fails the suite; run it after a build (`pnpm run build && node scripts/bench-levels.mjs`).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { supportResistance } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const file = join(
  process.env.MARKETLENS_SHARED_DATA ?? resolve(here, '../../../../shared/data'),
  'nvda-1999-2014-d1.csv',
);
if (!existsSync(file)) {
  console.log(`skipped: ${file} is absent (the real series live in ../shared/data)`);
  process.exit(0);
}
const rows = readFileSync(file, 'utf8').trim().split('\n').slice(1, 1001);
const n = rows.length;
const c = {
  time: new Float64Array(n),
  open: new Float64Array(n),
  high: new Float64Array(n),
  low: new Float64Array(n),
  close: new Float64Array(n),
  volume: new Float64Array(n),
};
rows.forEach((line, i) => {
  const [date, o, h, l, cl, , v] = line.split(',');
  c.time[i] = Date.parse(`${date}T00:00:00Z`);
  c.open[i] = +o;
  c.high[i] = +h;
  c.low[i] = +l;
  c.close[i] = +cl;
  c.volume[i] = +v;
});

for (let k = 0; k < 200; k++) supportResistance(c);
const times = [];
for (let r = 0; r < 40; r++) {
  const t0 = performance.now();
  for (let k = 0; k < 10; k++) supportResistance(c);
  times.push((performance.now() - t0) / 10);
}
times.sort((x, y) => x - y);
const median = times[times.length >> 1];
console.log(
  `supportResistance(), ${n} candles: median ${median.toFixed(3)} ms ${median < 1 ? 'ok (< 1 ms)' : 'MISSED (< 1 ms)'}`,
);
