import type { Candles } from '@marketlens/core';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { CHART_COLORS, type ChartInput, chartLayout, renderSvg } from './svg.js';

function candles(n: number): Candles {
  const c: Candles = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n).fill(1),
  };
  for (let i = 0; i < n; i++) {
    const mid = 100 + 20 * Math.sin(i / 6);
    const up = i % 2 === 0;
    c.time[i] = i * 86_400_000;
    c.open[i] = up ? mid - 2 : mid + 2;
    c.close[i] = up ? mid + 2 : mid - 2;
    c.high[i] = mid + 4;
    c.low[i] = mid - 4;
  }
  return c;
}

const input: ChartInput = {
  candles: candles(80),
  bars: 60,
  width: 800,
  height: 400,
  title: 'test',
  levels: [
    { price: 70, label: 'stop 70', kind: 'stop' },
    { price: 130, label: 'target 1 130', kind: 'target' },
  ],
  bands: [{ low: 84, high: 88, kind: 'support' }],
};

function rgb(hex: string): [number, number, number] {
  return [
    Number.parseInt(hex.slice(1, 3), 16),
    Number.parseInt(hex.slice(3, 5), 16),
    Number.parseInt(hex.slice(5, 7), 16),
  ];
}

describe('renderSvg rendered by resvg', () => {
  const image = new Resvg(renderSvg(input), { font: { loadSystemFonts: false } }).render();
  const L = chartLayout(input);
  const pixel = (x: number, y: number): [number, number, number] => {
    const k = (Math.round(y) * image.width + Math.round(x)) * 4;
    return [image.pixels[k], image.pixels[k + 1], image.pixels[k + 2]];
  };

  it('has the asked size and the background in the corner', () => {
    expect([image.width, image.height]).toEqual([800, 400]);
    expect(pixel(2, image.height - 2)).toEqual(rgb(CHART_COLORS.background));
  });

  it('draws up and down candle bodies in their colours where the layout puts them', () => {
    // candle k=0 is index 20 (even: up), k=1 index 21 (down); sample the middle of each body
    const c = input.candles;
    for (const k of [0, 1, 30, 31]) {
      const i = L.from + k;
      const y = L.y((c.open[i] + c.close[i]) / 2);
      expect(pixel(L.x(k), y)).toEqual(rgb(i % 2 === 0 ? CHART_COLORS.up : CHART_COLORS.down));
    }
  });

  it('draws the stop and target lines at their prices', () => {
    // x = the plot's left edge + 2 px: inside the first dash; lines are snapped to whole pixels
    expect(pixel(L.plot.left + 2, Math.round(L.y(70)))).toEqual(rgb(CHART_COLORS.stop));
    expect(pixel(L.plot.left + 2, Math.round(L.y(130)))).toEqual(rgb(CHART_COLORS.target));
    expect(pixel(L.plot.left + 2, Math.round(L.y(100)))).not.toEqual(rgb(CHART_COLORS.stop));
  });
});
