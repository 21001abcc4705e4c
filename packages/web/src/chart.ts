import type { AnalysisResponse, CandlesResponse } from '@marketlens/contract';
import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  type IChartApi,
  type IPrimitivePaneRenderer,
  type IPrimitivePaneView,
  type ISeriesApi,
  type ISeriesPrimitive,
  LineStyle,
  type SeriesAttachedParameter,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { h } from './dom.js';
import { num, price } from './format.js';
import type { Catalog } from './i18n/catalog.js';
import { word } from './i18n/catalogs.js';
import { planLines } from './plan-legend.js';

type Zone = AnalysisResponse['levels']['zones'][number];
type Bar = CandlesResponse['candles'][number];

const UP = '#26a69a';
const DOWN = '#ef5350';
const SUPPORT = 'rgba(38, 166, 154, 0.16)';
const RESISTANCE = 'rgba(239, 83, 80, 0.16)';

/** An ISO date-time as the chart's time (seconds). */
export function chartTime(iso: string): UTCTimestamp {
  return Math.floor(Date.parse(iso) / 1000) as UTCTimestamp;
}

/** The target drawing context lightweight-charts hands a primitive renderer. */
interface Target {
  useBitmapCoordinateSpace(
    f: (scope: {
      context: CanvasRenderingContext2D;
      bitmapSize: { width: number; height: number };
      verticalPixelRatio: number;
    }) => void,
  ): void;
}

/**
 * The support and resistance zones drawn as bands across the pane, behind the candles. `drawn`
 * counts the bands of the last paint (the page publishes it, the browser test reads it).
 */
class ZoneBands implements ISeriesPrimitive<Time> {
  zones: Zone[] = [];
  drawn = 0;
  private series: ISeriesApi<'Candlestick'> | null = null;
  private requestUpdate: (() => void) | null = null;
  private readonly view: IPrimitivePaneView;

  constructor(private readonly onDrawn: (count: number) => void) {
    const renderer: IPrimitivePaneRenderer = {
      draw: () => undefined,
      drawBackground: (target: Target) => this.paint(target),
    };
    this.view = { renderer: () => renderer, zOrder: () => 'bottom' };
  }

  attached(param: SeriesAttachedParameter<Time>): void {
    this.series = param.series as ISeriesApi<'Candlestick'>;
    this.requestUpdate = param.requestUpdate;
  }

  detached(): void {
    this.series = null;
    this.requestUpdate = null;
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return [this.view];
  }

  set(zones: Zone[]): void {
    this.zones = zones;
    this.requestUpdate?.();
  }

  private paint(target: Target): void {
    const series = this.series;
    if (series === null) return;
    let drawn = 0;
    target.useBitmapCoordinateSpace(({ context, bitmapSize, verticalPixelRatio }) => {
      for (const z of this.zones) {
        const top = series.priceToCoordinate(z.high);
        const bottom = series.priceToCoordinate(z.low);
        if (top === null || bottom === null) continue;
        const y = Math.round(Math.min(top, bottom) * verticalPixelRatio);
        const height = Math.max(2, Math.round(Math.abs(bottom - top) * verticalPixelRatio));
        context.fillStyle = z.kind === 'support' ? SUPPORT : RESISTANCE;
        context.fillRect(0, y, bitmapSize.width, height);
        drawn++;
      }
    });
    if (drawn !== this.drawn) {
      this.drawn = drawn;
      this.onDrawn(drawn);
    }
  }
}

/** The asset page's chart: candles with volume, the zones as bands, the plan as lines, the live candle apart. */
export interface AssetChart {
  readonly element: HTMLElement;
  /** Draws the closed candles and the live one. */
  setCandles(data: CandlesResponse): void;
  /** Moves the live candle (a newer read of the candles route). */
  updateLive(live: Bar | null): void;
  /** Draws the analysis: zones and the plan's entry, stop and targets with their R. */
  setAnalysis(analysis: AnalysisResponse, timeframe: string, locale: string): void;
  destroy(): void;
}

/** A lighter, hollow candle for the one still forming, so it reads as not yet analysed. */
function liveBar(b: Bar) {
  const up = b.close >= b.open;
  return {
    time: chartTime(b.time),
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    color: 'rgba(0,0,0,0)',
    borderColor: up ? '#9be7df' : '#f7a8a6',
    wickColor: up ? '#9be7df' : '#f7a8a6',
  };
}

/** A price on the chart's scale: two decimals from 1 up, four below (the scale's steps are coarse). */
export function axisPrice(value: number, locale: string): string {
  const d = Math.abs(value) >= 1 ? 2 : 4;
  return value.toLocaleString(locale, { minimumFractionDigits: d, maximumFractionDigits: d, useGrouping: false });
}

/** How many of the latest candles the chart shows at first (scroll or zoom out for the rest). */
export const VISIBLE_BARS = 150;

/** Creates the chart inside a new element (append the element, then feed it). */
export function createAssetChart(
  t: Catalog,
  pageLocale: string,
  onZonesDrawn: (count: number) => void,
  tick: number | null = null,
): AssetChart {
  const host = h('div', { class: 'chart', role: 'img', 'aria-label': t.chart.label });
  const tooltip = h('div', { class: 'chart-tip', hidden: true });
  // The plan's lines are named here, over the chart's corner, rather than in labels on the price
  // axis, where they crowded each other and the scale's own labels near the close.
  const legend = h('ul', { class: 'chart-legend', 'data-testid': 'plan-legend', hidden: true });
  const element = h('div', { class: 'chart-wrap' }, host, legend, tooltip);
  const chart: IChartApi = createChart(host, {
    autoSize: true,
    // The scale's prices and the time axis's dates in the page's language (`80,09` in Spanish).
    localization: { locale: pageLocale, priceFormatter: (p: number) => axisPrice(p, pageLocale) },
    layout: { background: { color: '#10141b' }, textColor: '#c9d1dc', attributionLogo: false },
    grid: { vertLines: { color: '#1c2330' }, horzLines: { color: '#1c2330' } },
    timeScale: { timeVisible: true, secondsVisible: false, borderColor: '#2a3342' },
    rightPriceScale: { borderColor: '#2a3342' },
  });
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: UP,
    downColor: DOWN,
    borderUpColor: UP,
    borderDownColor: DOWN,
    wickUpColor: UP,
    wickDownColor: DOWN,
  });
  // No label of its own on the price axis: a volume figure there sat on the price scale's labels.
  const volume = chart.addSeries(HistogramSeries, {
    priceFormat: { type: 'volume' },
    priceScaleId: 'volume',
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.82, bottom: 0 } });
  const bands = new ZoneBands(onZonesDrawn);
  candles.attachPrimitive(bands);
  let lines: ReturnType<typeof candles.createPriceLine>[] = [];
  let planPrices: number[] = [];
  // The plan's prices are kept inside the scale's range, so no line of the plan is off the chart.
  candles.applyOptions({
    autoscaleInfoProvider: (base: () => { priceRange: { minValue: number; maxValue: number } } | null) => {
      const range = base();
      if (range === null || planPrices.length === 0) return range;
      return {
        ...range,
        priceRange: {
          minValue: Math.min(range.priceRange.minValue, ...planPrices),
          maxValue: Math.max(range.priceRange.maxValue, ...planPrices),
        },
      };
    },
  });
  let timeframe = '';
  let locale = pageLocale;
  let lastClosed: Bar | null = null;

  chart.subscribeCrosshairMove((param) => {
    const point = param.point;
    const at = point === undefined ? null : candles.coordinateToPrice(point.y);
    const zone = at === null ? undefined : bands.zones.find((z) => z.low <= at && at <= z.high);
    if (point === undefined || zone === undefined) {
      tooltip.hidden = true;
      return;
    }
    const kind = word(t.words.zoneKinds, zone.kind);
    tooltip.textContent = t.chart.tooltip(
      kind.charAt(0).toLocaleUpperCase(locale) + kind.slice(1),
      `${price(zone.low, locale, tick)}–${price(zone.high, locale, tick)}`,
      timeframe,
      num(zone.strength, locale),
      zone.touches,
    );
    tooltip.style.left = `${Math.min(point.x + 12, host.clientWidth - 260)}px`;
    tooltip.style.top = `${point.y + 12}px`;
    tooltip.hidden = false;
  });

  const volumeBar = (b: Bar, live: boolean) => ({
    time: chartTime(b.time),
    value: b.volume,
    color: live ? 'rgba(160,170,190,0.35)' : b.close >= b.open ? 'rgba(38,166,154,0.45)' : 'rgba(239,83,80,0.45)',
  });

  return {
    element,
    setCandles(data) {
      lastClosed = data.candles.at(-1) ?? null;
      const bars = data.candles.map((b) => ({
        time: chartTime(b.time),
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
      }));
      const vols = data.candles.map((b) => volumeBar(b, false));
      if (data.live !== null) {
        bars.push(liveBar(data.live));
        vols.push(volumeBar(data.live, true));
      }
      candles.setData(bars);
      volume.setData(vols);
      // After the element has its size (the chart may be created before it is attached): the latest
      // candles, where the plan is, at a width a trader reads; the rest is a scroll away.
      requestAnimationFrame(() => {
        const n = bars.length;
        if (n <= VISIBLE_BARS) chart.timeScale().fitContent();
        else chart.timeScale().setVisibleLogicalRange({ from: n - VISIBLE_BARS, to: n + 2 });
      });
    },
    updateLive(live) {
      if (live === null || (lastClosed !== null && chartTime(live.time) <= chartTime(lastClosed.time))) return;
      candles.update(liveBar(live));
      volume.update(volumeBar(live, true));
    },
    setAnalysis(analysis, tf, loc) {
      timeframe = tf;
      locale = loc;
      bands.set(analysis.levels.zones);
      for (const line of lines) candles.removePriceLine(line);
      lines = [];
      const plan = planLines(analysis.zone, t, locale, tick);
      planPrices = plan.map((l) => l.price);
      const colors = { entry: '#4f8cff', stop: DOWN, target: UP } as const;
      const items = plan.map((l) => {
        const color = colors[l.role];
        lines.push(
          candles.createPriceLine({
            price: l.price,
            color,
            lineWidth: 2,
            lineStyle: l.dashed ? LineStyle.Dashed : LineStyle.Solid,
            // No label on the price axis: the plan's prices lie within a few ticks of each other and of
            // the close, and their labels covered one another and the scale's own. The legend names
            // each line with its price and R instead.
            axisLabelVisible: false,
            title: '',
          }),
        );
        const swatch = h('span', { class: 'swatch' });
        swatch.style.borderColor = color;
        swatch.style.borderStyle = l.dashed ? 'dashed' : 'solid';
        return h('li', { 'data-role': l.role }, swatch, l.text);
      });
      legend.replaceChildren(...items);
      legend.hidden = items.length === 0;
    },
    destroy() {
      chart.remove();
    },
  };
}
