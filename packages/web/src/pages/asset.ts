import type { AnalysisResponse, CandlesResponse, OverviewResponse } from '@marketlens/contract';
import { ApiError, api, apiOnce, localeHeader } from '../api.js';
import { type AssetChart, createAssetChart } from '../chart.js';
import { type Child, h, replace } from '../dom.js';
import { num, price, prob, tickOf } from '../format.js';
import type { Catalog } from '../i18n/catalog.js';
import { word } from '../i18n/catalogs.js';
import { describeError } from '../messages.js';
import { state } from '../state.js';
import { assetPath, timeframeChoices } from '../timeframes.js';

/** The two reads that draw an asset page: its candles and its analysis. */
export function assetReads(assetId: string, timeframe: string): { candles: string; analysis: string } {
  const base = `/v2/analysis/${encodeURIComponent(assetId)}`;
  const query = `timeframe=${encodeURIComponent(timeframe)}`;
  return { candles: `${base}/candles?${query}`, analysis: `${base}?${query}` };
}

/** How often the live candle is read again (the last price moves without a reload). */
export const LIVE_POLL_MS = 5_000;

type Signal = AnalysisResponse['signal'];

/** An expected R with its interval: `0.12 R [−0.05, 0.30]`. */
function expectedRText(edge: NonNullable<Signal['edge']>, locale: string): string {
  return `${num(edge.expected_r, locale)} R [${num(edge.expected_r_low, locale)}, ${num(edge.expected_r_high, locale)}]`;
}

/**
 * The signal's figures. A call shows its probability of target 1 (its confidence) beside the base
 * rate and its plan's break-even and expected R after costs; a Hold shows why there is no trade
 * and, when it declined a plan, that plan's odds against its break-even: never a confidence in
 * holding (issue 40).
 */
function signalFacts(signal: Signal, locale: string, t: Catalog): Child[] {
  const a = t.asset;
  const edge = signal.edge;
  if (signal.action !== 'hold') {
    return [
      h('dt', {}, a.confidence),
      h('dd', { 'data-testid': 'signal-confidence' }, prob(signal.confidence, locale)),
      h('dt', {}, a.baseRate),
      h('dd', {}, prob(signal.base_rate, locale)),
      edge !== null && h('dt', {}, a.breakEven),
      edge !== null && h('dd', {}, prob(edge.break_even, locale)),
      edge !== null && h('dt', {}, a.expectedR),
      edge !== null && h('dd', { 'data-testid': 'signal-expected-r' }, expectedRText(edge, locale)),
      h('dt', {}, a.score),
      h('dd', {}, num(signal.score, locale)),
    ];
  }
  const declined = signal.declined_plan !== null && signal.declined_plan.direction !== null && edge !== null;
  return [
    signal.reason !== undefined && h('dt', {}, a.reason),
    signal.reason !== undefined &&
      h('dd', { 'data-testid': 'signal-reason' }, word(t.words.signalReasons, signal.reason)),
    declined && h('dt', {}, a.declinedPlan),
    declined &&
      h(
        'dd',
        { 'data-testid': 'signal-declined' },
        `${word(t.words.directions, signal.declined_plan?.direction ?? '')}: ${a.declinedOdds(prob(edge.probability, locale), prob(edge.break_even, locale))}`,
      ),
    declined && h('dt', {}, a.expectedR),
    declined && h('dd', {}, expectedRText(edge, locale)),
    h('dt', {}, a.score),
    h('dd', {}, num(signal.score, locale)),
  ];
}

function signalPanel(signal: Signal, locale: string, t: Catalog): HTMLElement {
  const a = t.asset;
  const maxAbs = Math.max(1e-9, ...signal.factors.map((f) => Math.abs(f.contribution)));
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'signal-h' },
    h('h2', { id: 'signal-h' }, a.signal),
    h(
      'p',
      { class: `action action-${signal.action}`, 'data-testid': 'signal-action', 'data-action': signal.action },
      word(t.words.actions, signal.action).toLocaleUpperCase(locale),
    ),
    h('dl', { class: 'facts' }, ...signalFacts(signal, locale, t)),
    h(
      'ul',
      { class: 'bars', 'aria-label': a.factorContributions },
      ...signal.factors.map((f) => {
        const width = `${Math.round((Math.abs(f.contribution) / maxAbs) * 100)}%`;
        const bar = h('span', { class: `bar ${f.contribution >= 0 ? 'pos' : 'neg'}` });
        bar.style.width = width;
        return h(
          'li',
          {},
          h('span', { class: 'bar-name' }, word(t.words.factors, f.name)),
          h('span', { class: 'bar-track' }, bar),
          h('span', { class: 'bar-value' }, num(f.contribution, locale, 3)),
        );
      }),
    ),
  );
}

function planPanel(analysis: AnalysisResponse, locale: string, t: Catalog): HTMLElement {
  const plan = analysis.zone;
  const tick = tickOf(analysis.asset.asset_class);
  const a = t.asset;
  const reason = word(t.words.planReasons, plan.reason);
  const rows: Child[] =
    plan.direction === null
      ? [h('p', {}, plan.bias ? a.noTradeWithBias(reason, word(t.words.directions, plan.bias)) : a.noTrade(reason))]
      : [
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, a.direction),
            h('dd', {}, word(t.words.directions, plan.direction)),
            h('dt', {}, a.entry),
            h('dd', {}, price(plan.entry_price, locale, tick)),
            h('dt', {}, a.stop),
            h('dd', {}, price(plan.stop_loss, locale, tick)),
            ...plan.take_profits.flatMap((tp, i) => [
              h('dt', {}, a.target(i + 1, `${num(tp.size_pct, locale, 0)} %`)),
              h('dd', {}, `${price(tp.price, locale, tick)} · ${num(tp.risk_reward, locale, 1)} R`),
            ]),
          ),
        ];
  return h('section', { class: 'panel', 'aria-labelledby': 'plan-h' }, h('h2', { id: 'plan-h' }, a.plan), ...rows);
}

function levelsPanel(analysis: AnalysisResponse, locale: string, t: Catalog): HTMLElement {
  const a = t.asset;
  const tick = tickOf(analysis.asset.asset_class);
  const zones = [...analysis.levels.zones].sort((x, y) => y.mid - x.mid);
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'levels-h' },
    h('h2', { id: 'levels-h' }, a.levels),
    h(
      'table',
      { class: 'table', 'data-testid': 'zones' },
      h('caption', { class: 'sr-only' }, a.levelsCaption(analysis.timeframe)),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, a.zone),
          h('th', { scope: 'col' }, a.range),
          h('th', { scope: 'col' }, a.strength),
        ),
      ),
      h(
        'tbody',
        {},
        ...zones.map((z) =>
          h(
            'tr',
            { class: z.kind },
            h('td', {}, word(t.words.zoneKinds, z.kind)),
            h('td', {}, `${price(z.low, locale, tick)} – ${price(z.high, locale, tick)}`),
            h('td', {}, a.touchesShort(num(z.strength, locale), z.touches)),
          ),
        ),
      ),
    ),
  );
}

function sentimentPanel(analysis: AnalysisResponse, locale: string, t: Catalog): HTMLElement {
  const a = t.asset;
  const fg = analysis.fear_greed;
  const r = analysis.regime;
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'fg-h' },
    h('h2', { id: 'fg-h' }, a.sentiment),
    h(
      'p',
      { class: 'big' },
      fg.score === null ? '–' : String(fg.score),
      ' ',
      h('span', {}, word(t.words.fearGreedZones, fg.zone)),
    ),
    h(
      'ul',
      { class: 'plain' },
      ...fg.components.map((c) =>
        h(
          'li',
          {},
          a.componentWeight(word(t.words.fearGreedComponents, c.name), num(c.value, locale, 0), num(c.weight, locale)),
        ),
      ),
    ),
    h(
      'p',
      {},
      `${a.regime}: `,
      h('strong', {}, word(t.words.phases, r.phase)),
      r.since !== null ? a.since(new Date(r.since).toLocaleDateString(locale)) : '',
      r.strength !== null ? a.regimeStrength(num(r.strength, locale)) : '',
    ),
  );
}

/**
 * The asset page: the chart of the analysed candles with the zones, the plan and the live candle,
 * the timeframe switcher, the signal, Fear & Greed, the regime and the narrative. The live candle
 * is read again every few seconds; a failure shows the API's message in the page and the page
 * recovers by itself when the server is back.
 */
export function renderAssetPage(
  root: HTMLElement,
  assetId: string,
  requested: string | null,
  navigate: (path: string) => void,
): () => void {
  const config = state.config;
  const defaultTf = config?.analysis.default_timeframe ?? 'd1';
  const timeframe = requested ?? defaultTf;
  const locale = state.locale;
  const t = state.text;
  const title = h('h1', {}, assetId);
  const lastPrice = h('p', { class: 'last', 'aria-live': 'polite', 'data-testid': 'last-price' });
  const message = h('div', { class: 'message', role: 'alert', 'data-testid': 'asset-message' });
  const switcher = h(
    'div',
    { class: 'tf', role: 'group', 'aria-label': t.asset.timeframe },
    ...timeframeChoices(config?.analysis.timeframes ?? [{ value: defaultTf, needs_pro: false }], t.words.tiers.pro).map(
      (choice) =>
        h(
          'button',
          {
            type: 'button',
            class: choice.value === timeframe ? 'on' : '',
            'aria-pressed': choice.value === timeframe ? 'true' : 'false',
            'data-tf': choice.value,
            title: choice.gated ? t.asset.needsTier(choice.value, choice.tier) : t.asset.show(choice.value),
            onclick: () => navigate(assetPath(assetId, choice.value, defaultTf)),
          },
          choice.label,
        ),
    ),
  );
  const chartSlot = h('div', { class: 'chart-slot' });
  const side = h('div', { class: 'side' });
  const narrative = h('section', { class: 'panel narrative', 'aria-labelledby': 'story-h', lang: locale });
  replace(
    root,
    h('div', { class: 'asset-head' }, title, lastPrice, switcher),
    message,
    h('div', { class: 'asset-body' }, chartSlot, side),
    narrative,
  );

  let chart: AssetChart | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const query = `timeframe=${encodeURIComponent(timeframe)}`;
  const base = `/v2/analysis/${encodeURIComponent(assetId)}`;
  const gatedLabel = t.asset.theTimeframe(timeframe);

  const showError = (err: unknown) => {
    const code = err instanceof ApiError ? String(err.code) : 'Error';
    // Analyses need an account (there is no anonymous tier): say where to get one.
    const signIn = code === 'Unauthorized' || code === 'InvalidSession';
    replace(
      message,
      describeError(err, t, { tierFor: gatedLabel }),
      signIn ? ' ' : null,
      signIn ? h('a', { href: '/app/account' }, t.asset.signInOrSignUp) : null,
    );
    message.dataset.code = code;
  };

  // The market's tick for the asset's class, known once its candles came (the asset is in them).
  let tick: number | null = null;
  const showLast = (value: number, live: boolean) => {
    lastPrice.textContent = `${price(value, locale, tick)} · ${live ? t.asset.live : t.asset.lastClose}`;
  };

  const reads = assetReads(assetId, timeframe);
  const load = async (): Promise<boolean> => {
    try {
      const candlesRead = apiOnce<CandlesResponse>(reads.candles);
      const analysisRead = apiOnce<AnalysisResponse>(reads.analysis);
      // Awaited below, after the candles: a failure before then must not count as unhandled.
      analysisRead.catch(() => undefined);
      const candles = await candlesRead;
      if (stopped) return true;
      tick = tickOf(candles.asset.asset_class);
      if (chart === null) {
        chart = createAssetChart(
          t,
          locale,
          (count) => {
            chartSlot.dataset.zonesDrawn = String(count);
          },
          tick,
        );
        chartSlot.replaceChildren(chart.element);
      }
      // The chart first, as soon as its candles are here; the analysis is drawn on it when it comes.
      chart.setCandles(candles);
      requestAnimationFrame(() => {
        if (performance.getEntriesByName('ml:first-chart').length === 0) performance.mark('ml:first-chart');
      });
      const last = candles.live ?? candles.candles.at(-1);
      if (last !== undefined) showLast(last.close, candles.live !== null);
      const analysis = await analysisRead;
      if (stopped) return true;
      message.textContent = '';
      delete message.dataset.code;
      title.textContent = `${analysis.asset.name} (${analysis.asset.symbol})`;
      document.title = `${analysis.asset.name} · ${timeframe} · marketlens`;
      chart.setAnalysis(analysis, timeframe, locale);
      requestAnimationFrame(() => {
        chartSlot.dataset.ready = 'true';
      });
      replace(
        side,
        signalPanel(analysis.signal, locale, t),
        planPanel(analysis, locale, t),
        levelsPanel(analysis, locale, t),
        sentimentPanel(analysis, locale, t),
      );
      api<OverviewResponse>(`${base}/overview?${query}`, { headers: localeHeader(locale) })
        .then((o) => {
          if (!stopped)
            replace(narrative, h('h2', { id: 'story-h' }, t.asset.overview), h('p', { lang: o.locale }, o.text));
        })
        .catch((err: unknown) => {
          if (!stopped)
            replace(narrative, h('h2', { id: 'story-h' }, t.asset.overview), h('p', {}, describeError(err, t)));
        });
      return true;
    } catch (err) {
      if (!stopped) showError(err);
      return false;
    }
  };

  const poll = async () => {
    if (stopped) return;
    if (chart === null) {
      // Not drawn yet (the server was away): try the whole page again.
      const ok = await load();
      if (!ok && message.dataset.code !== 'Unreachable') return; // a lasting answer (unknown asset, gate): stop.
    } else {
      try {
        const candles = await api<CandlesResponse>(`${base}/candles?${query}`);
        if (stopped) return;
        if (message.dataset.code === 'Unreachable') {
          message.textContent = '';
          delete message.dataset.code;
        }
        chart.updateLive(candles.live);
        const last = candles.live ?? candles.candles.at(-1);
        if (last !== undefined) showLast(last.close, candles.live !== null);
      } catch (err) {
        if (!stopped) showError(err);
      }
    }
    timer = setTimeout(() => void poll(), LIVE_POLL_MS);
  };

  void load().then((ok) => {
    if (stopped) return;
    if (ok || message.dataset.code === 'Unreachable') timer = setTimeout(() => void poll(), LIVE_POLL_MS);
  });

  return () => {
    stopped = true;
    clearTimeout(timer);
    chart?.destroy();
  };
}
