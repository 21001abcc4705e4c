import { runScreeners, type ScreenerAsset } from '@marketlens/core';
import { type AssetClass, defaultUniverse, type MarketType, VenueError } from '@marketlens/exchanges';
import { type Command, JSON_OPTION } from '../args.js';
import {
  clockFrom,
  closedSeries,
  DATA_OPTIONS,
  limitOf,
  marketData,
  resolveAsset,
  timeframeOf,
} from '../data/source.js';
import { usageError } from '../errors.js';
import { num, pct, price, table } from '../output/format.js';
import { printJson } from '../output/json.js';
import { progress } from '../output/progress.js';
import { styleFor } from '../output/style.js';

const CLASSES: readonly AssetClass[] = ['coins', 'stocks', 'fx', 'external'];

export const screenCommand: Command = {
  spec: {
    name: 'screen',
    summary: 'breakouts, oversold assets and volume surges across the asset universe',
    args: '[asset...]',
    minArgs: 0,
    maxArgs: 500,
    options: {
      tf: DATA_OPTIONS.tf,
      market: DATA_OPTIONS.market,
      venue: DATA_OPTIONS.venue,
      limit: { ...DATA_OPTIONS.limit, description: 'candles read per asset, 50..5000, default 300' },
      class: { type: 'string', value: '<class>', description: 'only assets of this class', choices: CLASSES },
      top: { type: 'string', value: '<n>', description: 'longest list per screen, default 20' },
      json: JSON_OPTION,
    },
    examples: [
      'marketlens screen',
      'marketlens screen --class coins --tf h4',
      'marketlens screen bitcoin ethereum solana --json',
    ],
    notes: [
      'Without assets every asset of the universe is screened; a progress bar shows on stderr when it is a terminal.',
    ],
  },
  async run(args, io) {
    const tf = timeframeOf(args);
    const limit = limitOf(args, 300);
    const topRaw = args.string('top') ?? '20';
    const top = Number(topRaw);
    if (!/^\d+$/.test(topRaw) || top < 1)
      throw usageError(`--top must be a positive integer; got '${topRaw}'`, 'screen');
    const assetClass = args.string('class') as AssetClass | undefined;
    if (args.string('source') !== undefined && args.string('venue') !== undefined) {
      throw usageError('--source and --venue name the same thing; give one', 'screen');
    }
    const data = await marketData(args.string('source') ?? args.string('venue'), io.env, (message) =>
      io.stderr(`${message}\n`),
    );
    const universe = (data as { universe?: typeof defaultUniverse }).universe ?? defaultUniverse;
    const ids =
      args.positionals.length > 0
        ? args.positionals.map((a) => resolveAsset(a, data))
        : universe.list(assetClass).map((a) => a.id);
    const market = args.string('market') as MarketType | undefined;
    const now = clockFrom(io.env)(); // screens read closed candles only, as the server's do
    const bar = progress(io, 'screening', ids.length);
    const assets: ScreenerAsset[] = [];
    const skipped: { asset_id: string; code: string; message: string }[] = [];
    for (const [k, id] of ids.entries()) {
      bar.update(k, id);
      try {
        const series = await closedSeries(data, { asset_id: id, timeframe: tf, limit, market_type: market }, now);
        assets.push({ asset_id: id, candles: series.candles });
      } catch (err) {
        // One asset the venue lacks does not end the screen; a venue that is down does.
        if (!(err instanceof VenueError) || (err.code !== 'unknown_asset' && err.code !== 'unknown_market')) throw err;
        skipped.push({ asset_id: id, code: `venue_${err.code}`, message: err.message });
      }
    }
    bar.update(ids.length);
    const result = runScreeners(assets, { limit: top });
    bar.done();
    const errors = [...skipped, ...result.errors];
    if (args.flag('json')) {
      printJson(io, 'screen', {
        venue: data.venue,
        timeframe: tf,
        assets: assets.length,
        breakouts: result.breakouts,
        oversold: result.oversold,
        volume_surges: result.volume_surges,
        errors,
      });
      return;
    }
    const style = styleFor(io);
    const out: string[] = [`${style.bold('marketlens screen')}: ${assets.length} assets, ${tf}, ${data.venue}\n`];
    out.push(`\n${style.bold('Breakouts')}\n`);
    out.push(
      result.breakouts.length === 0
        ? 'none\n'
        : table(
            [
              ['asset', 'direction', 'kind', 'level', 'close', 'distance', 'ATR', 'volume z'],
              ...result.breakouts.map((b) => [
                b.asset_id,
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
      result.oversold.length === 0
        ? 'none\n'
        : table(
            [
              ['asset', 'RSI 14', 'stoch %K', 'williams %R', 'low', 'support', 'distance'],
              ...result.oversold.map((o) => [
                o.asset_id,
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
      result.volume_surges.length === 0
        ? 'none\n'
        : table(
            [
              ['asset', 'volume', 'volume z', 'ratio', 'change'],
              ...result.volume_surges.map((v) => [
                v.asset_id,
                num(v.volume, 0),
                num(v.volume_z),
                num(v.volume_ratio),
                pct(v.change_pct),
              ]),
            ],
            ['left', 'right', 'right', 'right', 'right'],
          ),
    );
    if (errors.length > 0) {
      out.push(`\n${style.yellow('Skipped')}\n`);
      out.push(table([['asset', 'code', 'message'], ...errors.map((e) => [e.asset_id, e.code, e.message])]));
    }
    io.stdout(out.join(''));
  },
};
