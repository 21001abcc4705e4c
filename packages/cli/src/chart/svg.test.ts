import type { Candles } from '@marketlens/core';
import { Resvg } from '@resvg/resvg-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reach } from '../../../core/src/testing/reach.js';
import {
  CHART_COLORS,
  type ChartInput,
  chartLayout,
  gridPrices,
  gridStep,
  LABEL_GAP,
  placeLabels,
  renderSvg,
} from './svg.js';

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

/** The labels at the right edge of a rendered chart: baseline and text. */
function axisLabels(svg: string, x: number): { y: number; text: string }[] {
  return [...svg.matchAll(/<text x="([\d.]+)" y="([\d.-]+)"[^>]*>([^<]*)<\/text>/g)]
    .filter((m) => Number(m[1]) === x)
    .map((m) => ({ y: Number(m[2]), text: m[3] }));
}

describe('chart gridlines and labels', () => {
  it('puts gridlines on round prices, at the market tick', () => {
    expect(gridStep(61.3, 138.7)).toBe(20);
    expect(gridStep(20.11, 20.87)).toBe(0.2);
    expect(gridStep(0.00151, 0.00171)).toBe(0.00005);
    // 2.5 cents is no step of a 0.01 market: 5 cents instead.
    expect(gridStep(20.0, 20.13, 6)).toBe(0.025);
    expect(gridStep(20.0, 20.13, 6, 0.01)).toBe(0.05);
    expect(gridStep(20.0, 20.01, 6, 0.01)).toBe(0.01);
    expect(gridPrices(61.3, 138.7, 20)).toEqual([80, 100, 120]);
    expect(gridPrices(0.1, 0.35, 0.1)).toEqual([0.1, 0.2, 0.3]);
    const svg = renderSvg({ ...input, tick: 0.01 });
    const L = chartLayout(input);
    const grid = axisLabels(svg, L.plot.right + 6).filter((l) => /^[\d.]+$/.test(l.text));
    expect(grid.map((l) => l.text)).toEqual(['80.00', '100.00', '120.00']);
    // Without a tick, the step's own decimals.
    const plain = axisLabels(renderSvg(input), L.plot.right + 6).filter((l) => /^[\d.]+$/.test(l.text));
    expect(plain.map((l) => l.text)).toEqual(['80', '100', '120']);
  });

  it('never overlaps two labels at the right edge, however close the levels (property)', () => {
    const crowded = reach('levels closer than a label');
    crowded.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 6000, max: 14000 }).map((k) => k / 100),
          { minLength: 2, maxLength: 8 },
        ),
        fc.integer({ min: 300, max: 800 }),
        (prices, height) => {
          const levels = prices.map((price, k) => ({ price, label: `level ${k}`, kind: 'target' as const }));
          const chart = { ...input, height, levels, tick: 0.01 };
          const L = chartLayout(chart);
          const wanted = levels.map((l) => L.y(l.price)).sort((a, b) => a - b);
          crowded.hitIf(wanted.some((y, i) => i > 0 && y - wanted[i - 1] < LABEL_GAP));
          const ys = axisLabels(renderSvg(chart), L.plot.right + 6)
            .map((l) => l.y)
            .sort((a, b) => a - b);
          // Every level keeps its label; grid labels fill the free places.
          expect(ys.length).toBeGreaterThanOrEqual(levels.length);
          for (let i = 1; i < ys.length; i++) expect(ys[i] - ys[i - 1]).toBeGreaterThanOrEqual(LABEL_GAP);
        },
      ),
      { numRuns: 200, atLeast: 0.3 },
    );
  });

  it('moves labels as little as needed and keeps their order', () => {
    expect(placeLabels([100, 200], 0, 400)).toEqual([100, 200]);
    expect(placeLabels([100, 101, 102], 0, 400)).toEqual([100, 113, 126]);
    expect(placeLabels([395, 396], 0, 400)).toEqual([387, 400]);
    expect(placeLabels([50, 10], 20, 400)).toEqual([50, 20]);
  });
});
