import { it } from 'vitest';
import { loadSharedSeries } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { stdDev } from './stddev.js';
it('x', () => {
  for (const { name, candles } of loadSharedSeries()) {
    const xs = candles.close;
    for (const p of [2, 5, 20, 200]) {
      const a = stdDev(xs, { period: p });
      const r = talib('STDDEV', { inReal: xs }, { optInTimePeriod: p, optInNbDev: 1 }).outReal;
      let k1 = 0, k2 = 0, maxRelScale = 0, scale=0, c=0, bad=0;
      for (let i = p - 1; i < xs.length; i++) {scale+=r[i];c++;}
      scale/=c;
      for (let i = p - 1; i < xs.length; i++) {
        if (r[i] === 0) { if (a[i]*a[i] >= 1e-8) bad++; continue; }
        let m = 0; for (let j = i - p + 1; j <= i; j++) m += xs[j] * xs[j]; m /= p;
        const dv = Math.abs(a[i] * a[i] - r[i] * r[i]) / (2.220446e-16 * m);
        k1 = Math.max(k1, dv); k2 = Math.max(k2, dv / Math.sqrt(i + 1));
        maxRelScale = Math.max(maxRelScale, Math.abs(a[i]-r[i])/Math.max(r[i], scale));
      }
      console.log(name, p, 'k', k1.toFixed(1), 'k/sqrt(i)', k2.toFixed(3), 'relScale', maxRelScale.toExponential(1), 'badzero', bad);
    }
  }
});
