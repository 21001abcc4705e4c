// Streaming indicators on live candles: each tick updates the still-open candle with
// replace(); when the candle closes, the next one starts with update(). At the end the
// streaming values equal a batch run over the closed candles, exactly.
import { ATR, atr, EMA, ema, RSI, rsi } from '@marketlens/core';
import { demoCandles } from './demo-series.mjs';

const candles = demoCandles(300);
const rsiStream = new RSI({ period: 14 });
const emaStream = new EMA({ period: 20 });
const atrStream = new ATR({ period: 14 });

for (let i = 0; i < candles.close.length; i++) {
  const closeAt = candles.close[i];
  const open = candles.open[i];
  // three ticks inside the candle: the open, a midpoint, then the final close
  const ticks = [open, (open + closeAt) / 2, closeAt];
  ticks.forEach((price, t) => {
    const candle = {
      time: candles.time[i],
      open,
      high: Math.max(open, price, t === 2 ? candles.high[i] : price),
      low: Math.min(open, price, t === 2 ? candles.low[i] : price),
      close: price,
      volume: candles.volume[i],
    };
    const first = t === 0;
    if (first) {
      rsiStream.update(price);
      emaStream.update(price);
      atrStream.update(candle);
    } else {
      rsiStream.replace(price);
      emaStream.replace(price);
      atrStream.replace(candle);
    }
  });
}

const last = candles.close.length - 1;
const batch = {
  rsi: rsi(candles.close, { period: 14 })[last],
  ema: ema(candles.close, { period: 20 })[last],
  atr: atr(candles, { period: 14 })[last],
};
const live = { rsi: rsiStream.value, ema: emaStream.value, atr: atrStream.value };
console.log('streaming (synthetic demo series)');
for (const k of Object.keys(batch)) {
  console.log(`  ${k.padEnd(4)} live ${live[k].toFixed(6).padStart(14)}  batch ${batch[k].toFixed(6).padStart(14)}`);
  if (live[k] !== batch[k]) {
    console.error(`streaming ${k} differs from batch`);
    process.exit(1);
  }
}
console.log('  live values equal batch values exactly');
