import { OVERVIEW_LOCALES } from '@marketlens/core';
import { type Command, type CommandSpec, JSON_OPTION, type Parsed } from '../args.js';
import {
  type AnalysisData,
  type AnalysisQuestion,
  type Answer,
  candlesOfAnswer,
  type DataOperations,
  type Quoting,
} from '../data/operations.js';
import { DATA_OPTIONS, dataOperations, describeServed } from '../data/source.js';
import type { Io } from '../io.js';
import { num, type PriceText, pct, priceAt, table, utc } from '../output/format.js';
import { printData } from '../output/json.js';
import { type Style, styleFor } from '../output/style.js';
import { type TermLevel, termChart } from '../output/term-chart.js';

const EXAMPLES_ASSET = 'bitcoin';

function spec(name: string, summary: string, extra: CommandSpec['options'] = {}): CommandSpec {
  return {
    name,
    summary,
    args: '[asset]',
    minArgs: 0,
    maxArgs: 1,
    options: { ...DATA_OPTIONS, ...extra, json: JSON_OPTION },
    examples: [
      `marketlens ${name} ${EXAMPLES_ASSET}`,
      `marketlens ${name} ethereum --tf h4 --json`,
      `marketlens ${name} --file prices.csv`,
    ],
    notes: [
      'The asset is an id (bitcoin, ethereum, stock-aapl, fx-eurusd) or a ticker (BTC). Data comes from the',
      'offline simulated venue unless --venue or --file says otherwise.',
    ],
  };
}

/** The analysis as REST answers it (a file's: the same shape, null where a file cannot say). */
type AnalysisAnswer = Answer<AnalysisData>;
type Signal = AnalysisData['signal'];
type TradePlan = AnalysisData['zone'];
type Zone = AnalysisData['levels']['zones'][number];
type FearGreed = AnalysisData['fear_greed'];

/**
 * Runs `ask` on the operations of the command's data (its asset on the market, or `--file`), and
 * releases them after.
 */
export async function asking<T>(
  args: Parsed,
  io: Io,
  command: string,
  ask: (ops: DataOperations, q: AnalysisQuestion) => Promise<T>,
): Promise<T> {
  const { operations, question } = await dataOperations(args, io, command, args.positionals[0]);
  try {
    return await ask(operations, question);
  } finally {
    await operations.close();
  }
}

/** The block of REST answers saying what was served: the asset, its market and where from. */
type Served = Pick<
  AnalysisAnswer,
  'asset' | 'timeframe' | 'market_type' | 'pair' | 'venue' | 'data_source' | 'fetched_at' | 'stale'
>;

/** The served block of an answer, as every REST analysis answer starts. */
export function servedOf(a: Served): Served {
  return {
    asset: a.asset,
    timeframe: a.timeframe,
    market_type: a.market_type,
    pair: a.pair,
    venue: a.venue,
    data_source: a.data_source,
    fetched_at: a.fetched_at,
    stale: a.stale,
  };
}

function header(style: Style, title: string, served: Served, asOf: string, quoting: Quoting, candles?: number): string {
  const quoted = quoting.quote === null ? '' : `, prices in ${quoting.quote}`;
  const count = candles === undefined ? '' : `, ${candles} candles`;
  const stale = served.stale ? ` (${style.yellow('stale')}: the source failed, the stored candles are served)` : '';
  return `${style.bold(title)}: ${describeServed(served)}\nas of ${utc(asOf)} UTC${count}${quoted}${stale}\n`;
}

export function actionText(style: Style, s: Signal): string {
  const label = s.action.toUpperCase();
  return s.action === 'buy' ? style.green(label) : s.action === 'sell' ? style.red(label) : style.yellow(label);
}

/** Why a hold has no trade, by its reason (`conflicting`: the score called no side). */
const HOLD_REASONS: Readonly<Record<string, string>> = {
  no_edge: 'no edge after costs',
  poor_reward: 'reward too small for the risk after costs',
  insufficient_data: 'not enough history',
  conflicting: 'the factors point to no side',
};

/**
 * The signal line: a call's probability of target 1 against its break-even and its expected R
 * after costs; a hold's reason for no trade and any declined plan, never a confidence in holding.
 */
export function signalHeadline(s: Signal): string {
  const e = s.edge;
  if (s.action !== 'hold') {
    const worth =
      e === null
        ? ''
        : `  break-even ${num(e.break_even)}  expected R ${num(e.expected_r)} [${num(e.expected_r_low)}, ${num(e.expected_r_high)}]`;
    return `p(target 1) ${num(s.confidence)} (base rate ${num(s.base_rate)})${worth}  score ${num(s.score, 3)}  threshold ${num(s.threshold, 2)}`;
  }
  const d = s.declined_plan;
  const declined =
    d !== null && d.direction !== null && e !== null
      ? `  declined ${d.direction} plan (not a recommendation): p(target 1) ${num(e.probability)} vs break-even ${num(e.break_even)}, expected R ${num(e.expected_r)}`
      : '';
  const reason = s.reason ?? 'conflicting';
  return `no trade: ${HOLD_REASONS[reason] ?? reason}${declined}  score ${num(s.score, 3)}  threshold ${num(s.threshold, 2)}`;
}

function signalText(style: Style, s: Signal): string {
  const head = `signal ${actionText(style, s)}  ${signalHeadline(s)}\n`;
  const rows = [['factor', 'score', 'weight', 'contribution']];
  for (const f of s.factors)
    rows.push([f.name, f.score === null ? 'n/a' : num(f.score, 3), num(f.weight, 3), num(f.contribution, 3)]);
  return head + table(rows, ['left', 'right', 'right', 'right']);
}

function zoneRows(zones: readonly Zone[], mark: number, price: PriceText): string {
  const rows = [['kind', 'low', 'high', 'distance', 'strength', 'touches', 'last touch']];
  const sorted = [...zones].sort((x, y) => y.mid - x.mid);
  for (const z of sorted) {
    rows.push([
      z.kind,
      price(z.low),
      price(z.high),
      pct(((z.mid - mark) / mark) * 100),
      num(z.strength, 2),
      String(z.touches),
      utc(z.last_touch_time),
    ]);
  }
  return table(rows, ['left', 'right', 'right', 'right', 'right', 'right', 'left']);
}

function planText(style: Style, z: TradePlan, price: PriceText): string {
  if (z.direction === null) return `plan   no trade (${z.reason ?? 'none'})\n`;
  const side = z.direction === 'long' ? style.green('LONG') : style.red('SHORT');
  const lines = [
    `plan   ${side}  risk ${num(z.risk_pct)}%  cost ${num(z.cost_pct, 3)}%  horizon ${z.horizon_bars ?? 'n/a'} bars  entry window ${z.entry_window_bars ?? 'n/a'} bars`,
  ];
  const rows = [['', 'price', 'R:R', 'net R:R', 'size']];
  if (z.entry_zone !== null) {
    const how = z.entry_type === 'limit' ? ` (limit, expires after ${z.entry_window_bars ?? 'n/a'} bars)` : '';
    rows.push(['entry', `${price(z.entry_zone.low)}-${price(z.entry_zone.high)}${how}`, '', '', '']);
  }
  rows.push(['stop', price(z.stop_loss), '', '', '']);
  z.take_profits.forEach((t, k) => {
    rows.push([`target ${k + 1}`, price(t.price), num(t.risk_reward), num(t.risk_reward_net), `${t.size_pct}%`]);
  });
  return `${lines.join('\n')}\n${table(rows, ['left', 'right', 'right', 'right', 'right'])
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n')}`;
}

function fearGreedText(style: Style, fg: FearGreed): string {
  const score = fg.score === null ? 'n/a' : String(Math.round(fg.score));
  const zone = fg.zone ?? fg.reason ?? '';
  const paint =
    fg.zone === null
      ? style.dim
      : fg.zone.includes('fear')
        ? style.red
        : fg.zone.includes('greed')
          ? style.green
          : style.yellow;
  const rows = [['component', 'value', 'weight']];
  for (const c of fg.components) rows.push([c.name, num(c.value, 1), num(c.weight, 3)]);
  for (const u of fg.unavailable) rows.push([u.name, style.dim(u.reason), '']);
  return `fear & greed ${style.bold(score)} ${paint(zone)}\n${table(rows, ['left', 'right', 'right'])}`;
}

/** Levels of the terminal and SVG charts: nearest zones, entry, stop, targets, labelled at the market's tick. */
export function chartLevels(a: Pick<AnalysisData, 'levels' | 'zone'>, price: PriceText = priceAt(null)): TermLevel[] {
  const levels: TermLevel[] = [];
  const s = a.levels.nearest_support;
  const r = a.levels.nearest_resistance;
  if (s !== null) levels.push({ price: s.mid, label: `support ${price(s.low)}-${price(s.high)}`, kind: 'support' });
  if (r !== null)
    levels.push({ price: r.mid, label: `resistance ${price(r.low)}-${price(r.high)}`, kind: 'resistance' });
  const z = a.zone;
  if (z.entry_price !== null)
    levels.push({ price: z.entry_price, label: `entry ${price(z.entry_price)}`, kind: 'entry' });
  if (z.stop_loss !== null) levels.push({ price: z.stop_loss, label: `stop ${price(z.stop_loss)}`, kind: 'stop' });
  z.take_profits.forEach((t, k) => {
    levels.push({ price: t.price, label: `target ${k + 1} ${price(t.price)}`, kind: 'target' });
  });
  return levels;
}

/** The analysis answer's fields a command without a REST route of its own publishes, after the served block. */
function pick<K extends keyof AnalysisAnswer>(a: AnalysisAnswer, keys: readonly K[]) {
  const out = { ...servedOf(a), as_of: a.as_of } as Served & { as_of: string } & Pick<AnalysisAnswer, K>;
  for (const k of keys) out[k] = a[k] as (typeof out)[K];
  return out;
}

export const analyzeCommand: Command = {
  spec: spec('analyze', 'full analysis: indicators, levels, signal, plan, Fear & Greed, regime (GET /v2/analysis)', {
    locale: {
      type: 'string',
      value: '<locale>',
      description: 'language of the overview shown, default en (the JSON is the analysis; see the overview command)',
      choices: OVERVIEW_LOCALES,
    },
  }),
  async run(args, io) {
    if (args.flag('json')) {
      printData(io, 'analyze', await asking(args, io, 'analyze', (ops, q) => ops.analysis(q)));
      return;
    }
    const { a, candles, overview, quoting } = await asking(args, io, 'analyze', async (ops, q) => {
      const a = await ops.analysis(q);
      const [candles, overview, quoting] = await Promise.all([
        ops.candles(q),
        ops.overview(q, args.string('locale') ?? 'en'),
        ops.quoting(a),
      ]);
      return { a, candles, overview, quoting };
    });
    const price = priceAt(quoting.tick_size);
    const style = styleFor(io);
    const ind = a.indicators;
    const out: string[] = [header(style, 'marketlens analysis', a, a.as_of, quoting, candles.candles.length), ''];
    out.push(
      termChart(candlesOfAnswer(candles), style, {
        width: Math.min(80, io.columns - 40),
        height: 14,
        levels: chartLevels(a, price),
        price,
      }),
      '',
    );
    out.push(
      table(
        [
          ['close', 'change', 'RSI 14', 'MACD hist', 'ADX 14', 'ATR 14', 'volume z'],
          [
            price(ind.close),
            pct(ind.change_pct),
            num(ind.rsi_14, 1),
            num(ind.macd_histogram, 3),
            num(ind.adx_14, 1),
            price(ind.atr_14),
            num(ind.volume_z, 2),
          ],
        ],
        ['right', 'right', 'right', 'right', 'right', 'right', 'right'],
      ),
      '',
    );
    const s = a.levels.nearest_support;
    const r = a.levels.nearest_resistance;
    const live =
      a.live === null
        ? ''
        : `live        ${price(a.live.price)}  ${pct(a.live.change_pct)} since the close  at ${utc(a.live.time)} UTC\n`;
    out.push(
      `support     ${s ? `${price(s.low)}-${price(s.high)}  ${pct(s.distance_pct)}  ${num(s.distance_atr)} ATR` : 'none'}\n`,
      `resistance  ${r ? `${price(r.low)}-${price(r.high)}  ${pct(r.distance_pct)}  ${num(r.distance_atr)} ATR` : 'none'}\n`,
      `volume POC  ${price(a.volume_profile.poc)}  value area ${price(a.volume_profile.value_area_low)}-${price(a.volume_profile.value_area_high)}\n`,
      live,
      '\n',
      signalText(style, a.signal),
      '\n',
      planText(style, a.zone, price),
      '\n',
      `rating ${a.technical_rating.rating ?? `n/a${a.technical_rating.reason ? ` (${a.technical_rating.reason})` : ''}`} (${num(a.technical_rating.value, 3)})   regime ${a.regime.phase ?? 'n/a'}${a.regime.transition ? ` (from ${a.regime.transition.from}, ${a.regime.transition.bars_ago} bars ago)` : ''}   fear & greed ${a.fear_greed.score === null ? 'n/a' : Math.round(a.fear_greed.score)} ${a.fear_greed.zone ?? ''}\n`,
      a.patterns && a.patterns.length > 0 ? `patterns ${a.patterns.join(', ')}\n` : '',
      a.history.insufficient.length > 0
        ? `history     ${a.history.candles} candles, not enough for ${a.history.insufficient.map((o) => `${o} (needs ${a.history.min_candles[o]})`).join(', ')}\n`
        : '',
      '\n',
      `${overview.text}\n`,
    );
    io.stdout(out.join(''));
  },
};

export const signalCommand: Command = {
  spec: spec('signal', 'the Buy/Hold/Sell signal with its factor breakdown (GET /v2/analysis/{asset}/signal)'),
  async run(args, io) {
    const { sig, quoting } = await asking(args, io, 'signal', async (ops, q) => {
      const sig = await ops.signal(q);
      return { sig, quoting: args.flag('json') ? null : await ops.quoting(sig) };
    });
    if (quoting === null) {
      printData(io, 'signal', sig);
      return;
    }
    const style = styleFor(io);
    io.stdout(`${header(style, 'marketlens signal', sig, sig.as_of, quoting)}\n${signalText(style, sig.signal)}`);
  },
};

export const zonesCommand: Command = {
  spec: spec(
    'zones',
    'support and resistance zones, the volume profile and the trade plan (the levels, volume_profile and zone of GET /v2/analysis)',
  ),
  async run(args, io) {
    const { a, quoting } = await asking(args, io, 'zones', async (ops, q) => {
      const a = await ops.analysis(q);
      return { a, quoting: args.flag('json') ? null : await ops.quoting(a) };
    });
    if (quoting === null) {
      printData(io, 'zones', pick(a, ['levels', 'volume_profile', 'zone', 'live']));
      return;
    }
    const style = styleFor(io);
    const vp = a.volume_profile;
    const price = priceAt(quoting.tick_size);
    io.stdout(
      [
        header(style, 'marketlens zones', a, a.as_of, quoting),
        `mark ${price(a.levels.mark)}  ATR ${price(a.levels.atr)}  volume POC ${price(vp.poc)}  value area ${price(vp.value_area_low)}-${price(vp.value_area_high)}\n`,
        '\n',
        a.levels.zones.length > 0 ? zoneRows(a.levels.zones, a.levels.mark, price) : 'no zones\n',
        '\n',
        planText(style, a.zone, price),
      ].join(''),
    );
  },
};

export const fearGreedCommand: Command = {
  spec: spec(
    'feargreed',
    'the Fear & Greed score of an asset and its components, funding included (the fear_greed of GET /v2/analysis)',
  ),
  async run(args, io) {
    const { a, quoting } = await asking(args, io, 'feargreed', async (ops, q) => {
      const a = await ops.analysis(q);
      return { a, quoting: args.flag('json') ? null : await ops.quoting(a) };
    });
    if (quoting === null) {
      printData(io, 'feargreed', pick(a, ['fear_greed']));
      return;
    }
    const style = styleFor(io);
    io.stdout(
      `${header(style, 'marketlens fear & greed', a, a.as_of, quoting)}\n${fearGreedText(style, a.fear_greed)}`,
    );
  },
};

export const overviewCommand: Command = {
  spec: spec('overview', 'the overview narrative and its facts (GET /v2/analysis/{asset}/overview)', {
    locale: {
      type: 'string',
      value: '<locale>',
      description: 'language of the overview, default en (as x-locale)',
      choices: OVERVIEW_LOCALES,
    },
  }),
  async run(args, io) {
    const { o, quoting } = await asking(args, io, 'overview', async (ops, q) => {
      const o = await ops.overview(q, args.string('locale'));
      return { o, quoting: args.flag('json') ? null : await ops.quoting(o) };
    });
    if (quoting === null) {
      printData(io, 'overview', o, 1);
      return;
    }
    const style = styleFor(io);
    io.stdout(`${header(style, 'marketlens overview', o, o.as_of, quoting)}\n${o.text}\n`);
  },
};
