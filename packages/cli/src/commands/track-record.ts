/**
 * `marketlens track-record`: the service's own record, live and backtest, as `GET /v2/track-record`
 * answers it: from the embedded data folder (the backtest computed now, on this machine), or from a
 * running server (`--server`, the public route, no credential).
 */
import {
  AssetClassSchema,
  type RecordStats,
  type ServiceTrackRecord,
  ServiceTrackRecordSchema,
  TIMEFRAMES,
  type TrackRecordQuery,
} from '@marketlens/contract';
import { ConfigError, createMarketlens, loadConfig, type Marketlens } from '@marketlens/server';
import { type Command, JSON_OPTION, type Parsed } from '../args.js';
import { clockFrom, simulatedVenue } from '../data/source.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { num, table } from '../output/format.js';
import { printJson } from '../output/json.js';
import { styleFor } from '../output/style.js';

const NAME = 'track-record';

export const trackRecordCommand: Command = {
  spec: {
    name: NAME,
    summary: "the service's own track record: the live plans and, labelled apart, the backtest",
    args: '',
    minArgs: 0,
    maxArgs: 0,
    options: {
      tf: { type: 'string', value: '<tf>', description: 'only this timeframe', choices: TIMEFRAMES },
      class: {
        type: 'string',
        value: '<class>',
        description: 'only this asset class',
        choices: AssetClassSchema.options,
      },
      server: {
        type: 'string',
        value: '<url>',
        description: "read a running server's public GET /v2/track-record instead of the data folder",
      },
      'data-dir': {
        type: 'string',
        value: '<dir>',
        description: 'embedded: data folder, default MARKETLENS_DATA_DIR or ./data',
      },
      config: { type: 'string', value: '<file>', description: 'embedded: a JSON config file (as for serve)' },
      market: {
        type: 'string',
        value: '<sources>',
        description: 'embedded: market sources, default MARKETLENS_MARKET or simulated (e.g. files:./candles)',
      },
      json: JSON_OPTION,
    },
    examples: [
      'marketlens track-record',
      'marketlens track-record --tf d1 --class stocks --market files:./candles --json',
      'marketlens track-record --server https://api.example.com',
    ],
    notes: [
      'Live: every plan the service published (the data folder of `marketlens serve`), scored on the candles after it with its asset class cost.',
      'Backtest (simulated, not live trading): the signal walked forward over the stored candles of the served assets and timeframes, out of sample after the calibration window; embedded, it is computed now (a few seconds per series).',
      'Both show resolved calls, hit rate against the break-even hit rate, expected against realized R with 90% intervals, maximum drawdown in R and dates.',
    ],
  },
  async run(args, io) {
    const query: TrackRecordQuery = {
      ...(args.string('tf') === undefined ? {} : { timeframe: args.string('tf') as TrackRecordQuery['timeframe'] }),
      ...(args.string('class') === undefined
        ? {}
        : { asset_class: args.string('class') as TrackRecordQuery['asset_class'] }),
    };
    const server = args.string('server');
    let record: ServiceTrackRecord;
    let source: string;
    if (server === undefined) {
      ({ record, source } = await embedded(args, io, query));
    } else {
      if (['data-dir', 'config', 'market'].some((o) => args.string(o) !== undefined)) {
        throw usageError(
          '--data-dir, --config and --market are for the embedded mode; leave them out with --server',
          NAME,
        );
      }
      record = await remote(server, query);
      source = server;
    }
    if (args.flag('json')) {
      printJson(io, 'track-record', { source, ...record });
      return;
    }
    io.stdout(render(io, source, record));
  },
};

async function embedded(args: Parsed, io: Io, query: TrackRecordQuery) {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({
      env: io.env,
      file: args.string('config'),
      overrides: { PORT: '', MARKETLENS_DATA_DIR: args.string('data-dir'), MARKETLENS_MARKET: args.string('market') },
    });
  } catch (err) {
    throw usageError(err instanceof Error ? err.message : String(err), NAME);
  }
  const simulated = config.market.sources.length === 1 && config.market.sources[0].kind === 'simulated';
  let ml: Marketlens;
  try {
    ml = await createMarketlens(config, {
      demo: false,
      extra: { now: clockFrom(io.env) },
      ...(simulated ? { market: simulatedVenue(io.env) } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigError) throw usageError(err.message, NAME);
    throw err;
  }
  try {
    const record = await ml.trackRecord(query, { refreshBacktest: true });
    return { record, source: ml.config.server.dataDir };
  } finally {
    await ml.close();
  }
}

async function remote(server: string, query: TrackRecordQuery): Promise<ServiceTrackRecord> {
  let url: URL;
  try {
    url = new URL('/v2/track-record', server);
  } catch {
    throw usageError(`--server must be an http(s) URL; got '${server}'`, NAME);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`--server must be an http(s) URL; got '${server}'`, NAME);
  }
  if (query.timeframe !== undefined) url.searchParams.set('timeframe', query.timeframe);
  if (query.asset_class !== undefined) url.searchParams.set('asset_class', query.asset_class);
  let body: { success?: boolean; code?: unknown; message?: unknown; data?: unknown };
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
    body = (await res.json()) as typeof body;
  } catch (err) {
    throw dataError(
      'server_unavailable',
      `${url.origin} did not answer: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (body.success !== true) {
    throw dataError('server_error', `${url.origin} answered ${String(body.code)}: ${String(body.message)}`);
  }
  const parsed = ServiceTrackRecordSchema.safeParse(body.data);
  if (!parsed.success) throw dataError('bad_answer', `${url.origin} answered a record this CLI cannot read`);
  return parsed.data;
}

const rate = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const r = (x: number | null | undefined) =>
  x === null || x === undefined ? 'n/a' : `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
const day = (t: string | null) => (t === null ? 'n/a' : t.slice(0, 10));

const AUDIT_HEAD = [
  'resolved',
  'hit rate [90%]',
  'break-even',
  'expected R',
  'realized R [90%]',
  'max DD R',
  'from',
  'to',
];

/** The audit columns of a record's figures. */
function auditCells(s: RecordStats): string[] {
  const e = s.expected_r;
  return [
    String(s.count),
    s.hit_rate === null ? 'n/a' : `${rate(s.hit_rate.mean)} [${rate(s.hit_rate.low)}, ${rate(s.hit_rate.high)}]`,
    rate(s.break_even_hit_rate),
    e === null ? 'n/a' : e.low === null || e.high === null ? r(e.mean) : `${r(e.mean)} [${r(e.low)}, ${r(e.high)}]`,
    s.realized_r === null ? 'n/a' : `${r(s.realized_r.mean)} [${r(s.realized_r.low)}, ${r(s.realized_r.high)}]`,
    num(s.max_drawdown_r, 2),
    day(s.from),
    day(s.to),
  ];
}

/** The human form: the live record and its audit, then the backtest, labelled as one. */
export function render(io: Io, source: string, t: ServiceTrackRecord): string {
  const style = styleFor(io);
  const right = (n: number) => Array.from({ length: n }, () => 'right' as const);
  const scope = [t.timeframe, t.asset_class].filter((x) => x !== null).join(' ');
  const b = t.backtest;
  const out = [
    `${style.bold('marketlens track-record')}: ${source}${scope === '' ? '' : ` (${scope})`}, as of ${t.as_of}\n\n`,
    `${style.bold('Live record')}\n${t.live.label}\n`,
    table(
      [
        ['timeframe', 'class', 'cost %', 'plans', 'resolved', 'hit rate', 'mean R'],
        ...t.groups.map((g) => [
          g.timeframe,
          g.asset_class,
          num(g.cost_pct, 3),
          String(g.plans),
          String(g.resolved),
          rate(g.hit_rate),
          r(g.mean_realized_r),
        ]),
        [
          'all',
          '',
          t.cost_pct === null ? 'by class' : num(t.cost_pct, 3),
          String(t.total.plans),
          String(t.total.resolved),
          rate(t.total.hit_rate),
          r(t.total.mean_realized_r),
        ],
      ],
      ['left', 'left', ...right(5)],
    ),
    '\n',
    table([AUDIT_HEAD, auditCells(t.live.stats)], right(AUDIT_HEAD.length)),
    `\n${style.bold('Backtest record (simulated, not live trading)')}${b.as_of === null ? '' : `, as of ${b.as_of}`}\n${b.label}\n`,
  ];
  if (b.status === 'ready') {
    out.push(
      table(
        [
          ['series', 'cost %', 'analyses', 'calls', ...AUDIT_HEAD],
          ...b.series.map((s) =>
            s.error === null
              ? [
                  `${s.asset_id} ${s.timeframe}`,
                  num(s.cost_pct, 3),
                  String(s.analyses),
                  String(s.calls),
                  ...auditCells(s.stats),
                ]
              : [`${s.asset_id} ${s.timeframe}`, num(s.cost_pct, 3), 'not read', s.error, ...AUDIT_HEAD.map(() => '')],
          ),
          ['all', '', String(b.analyses), String(b.calls), ...auditCells(b.total)],
        ],
        ['left', ...right(3 + AUDIT_HEAD.length)],
      ),
    );
  }
  return out.join('');
}
