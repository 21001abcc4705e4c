// A deterministic SYNTHETIC daily series for the demo (not market data): a regime-switching
// geometric random walk with volatility clustering and volume that rises with |return|.
// Real data comes from a CSV you pass (see quant-csv.mjs) or, later, from a venue.

/** mulberry32: a tiny seeded PRNG so the demo prints the same numbers everywhere. */
function prng(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` daily candles ending at 2026-01-01 UTC, as Float64Array columns. */
export function demoCandles(n = 1000, seed = 7) {
  const rnd = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const c = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  const day = 86_400_000;
  const end = Date.UTC(2026, 0, 1);
  let price = 100;
  let vol = 0.02;
  let drift = 0.001;
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.01) drift = (rnd() - 0.45) * 0.004; // regime switch
    vol = Math.min(0.08, Math.max(0.005, 0.94 * vol + 0.06 * 0.02 + 0.1 * Math.abs(gauss()) * 0.01));
    const r = drift + vol * gauss();
    const open = price;
    price = Math.max(0.01, price * Math.exp(r));
    c.time[i] = end - (n - 1 - i) * day;
    c.open[i] = open;
    c.close[i] = price;
    c.high[i] = Math.max(open, price) * (1 + Math.abs(gauss()) * vol * 0.4);
    c.low[i] = Math.min(open, price) * (1 - Math.abs(gauss()) * vol * 0.4);
    c.volume[i] = Math.round(1e6 * (0.6 + 0.8 * rnd()) * (1 + 25 * Math.abs(r)));
  }
  return c;
}
