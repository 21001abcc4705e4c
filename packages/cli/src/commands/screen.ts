import { ASSET_CLASS_FILTERS } from '@marketlens/contract';
import { defaultUniverse, type MarketData, type Universe } from '@marketlens/exchanges';
import { type Command, JSON_OPTION } from '../args.js';
import { screenerClass } from '../data/operations.js';
import { DATA_OPTIONS, marketOfArgs, operationsOver } from '../data/source.js';
import { usageError } from '../errors.js';
import { num, pct, price, table } from '../output/format.js';
import { printData } from '../output/json.js';
import { type Progress, progress } from '../output/progress.js';
import { styleFor } from '../output/style.js';

export const screenCommand: Command = {
  spec: {
    name: 'screen',
    summary: 'breakouts, oversold assets and volume surges over an asset class (GET /v2/assets/screener)',
    args: '',
    minArgs: 0,
    maxArgs: 0,
    options: {
      class: {
        type: 'string',
        value: '<class>',
        description: 'the asset class screened, default coins (as REST)',
        choices: ASSET_CLASS_FILTERS,
      },
      source: DATA_OPTIONS.source,
      venue: DATA_OPTIONS.venue,
      top: {
        type: 'string',
        value: '<n>',
        description: 'rows shown per list, default 20 (text only: --json has them all)',
      },
      json: JSON_OPTION,
    },
    examples: [
      'marketlens screen',
      'marketlens screen --class stocks --source yahoo',
      'marketlens screen --class all --json',
    ],
    notes: [
      'The screener of the service: every asset of the class but stablecoins, on the newest 500 closed d1 candles.',
    ],
  },
  async run(args, io) {
    const topRaw = args.string('top') ?? '20';
    const top = Number(topRaw);
    if (!/^\d+$/.test(topRaw) || top < 1)
      throw usageError(`--top must be a positive integer; got '${topRaw}'`, 'screen');
    const assetClass = screenerClass(args.string('class'), 'screen');
    const market = await marketOfArgs(args, io, 'screen');
    const universe = (market as { universe?: Universe }).universe ?? defaultUniverse;
    const bar = progress(io, 'screening', universe.list(assetClass === 'all' ? undefined : assetClass).length);
    bar.update(0);
    const ops = await operationsOver(counting(market, bar), io);
    const result = await ops.screener(assetClass).finally(() => {
      bar.done();
      return ops.close();
    });
    if (args.flag('json')) {
      printData(io, 'screen', result);
      return;
    }
    const style = styleFor(io);
    const out: string[] = [
      `${style.bold('marketlens screen')}: ${result.assets_screened} ${assetClass === 'all' ? '' : `${assetClass} `}assets, d1 as of ${result.as_of.slice(0, 10)}, ${market.venue}\n`,
    ];
    const breakouts = result.breakouts.slice(0, top);
    const oversold = result.oversold.slice(0, top);
    const surges = result.volume_surges.slice(0, top);
    out.push(`\n${style.bold('Breakouts')}\n`);
    out.push(
      breakouts.length === 0
        ? 'none\n'
        : table(
            [
              ['asset', 'direction', 'kind', 'level', 'close', 'distance', 'ATR', 'volume z'],
              ...breakouts.map((b) => [
                b.asset.id,
                b.direction === 'up' ? style.green('up') : style.red('down'),
                b.kind,
                price(b.level),
                price(b.close),
                pct(b.distance_pct),
                num(b.distance_atr),
                num(b.volume_z),
              ]),
            ],
            ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right'],
          ),
    );
    out.push(`\n${style.bold('Oversold')}\n`);
    out.push(
      oversold.length === 0
        ? 'none\n'
        : table(
            [
              ['asset', 'RSI 14', 'stoch %K', 'williams %R', 'low', 'support', 'distance'],
              ...oversold.map((o) => [
                o.asset.id,
                num(o.rsi_14, 1),
                num(o.stoch_k, 1),
                num(o.williams_r, 1),
                `${o.oscillators_low}/3`,
                price(o.support),
                pct(o.distance_pct),
              ]),
            ],
            ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
          ),
    );
    out.push(`\n${style.bold('Volume surges')}\n`);
    out.push(
      surges.length === 0
        ? 'none\n'
        : table(
            [
              ['asset', 'volume', 'volume z', 'ratio', 'change'],
              ...surges.map((v) => [
                v.asset.id,
                num(v.volume, 0),
                num(v.volume_z),
                num(v.volume_ratio),
                pct(v.change_pct),
              ]),
            ],
            ['left', 'right', 'right', 'right', 'right'],
          ),
    );
    io.stdout(out.join(''));
  },
};

/** `market` with each candle read counted on `bar` (the screener reads each asset of the class once). */
function counting(market: MarketData, bar: Progress): MarketData {
  let done = 0;
  return new Proxy(market, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'candles' && typeof value === 'function') {
        return async (...args: Parameters<MarketData['candles']>) => {
          try {
            return await (value as MarketData['candles']).apply(target, args);
          } finally {
            bar.update(++done, args[0].asset_id);
          }
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
