import {
  announceStart,
  ConfigError,
  createMarketlens,
  loadConfig,
  OPENAPI_PATH,
  RELEASE_FEED_PATH,
} from '@marketlens/server';
import type { Command } from '../args.js';
import { usageError } from '../errors.js';

export const serveCommand: Command = {
  spec: {
    name: 'serve',
    summary: 'start the REST server (embedded default: SQLite in the data folder, the simulated venue, no network)',
    args: '',
    minArgs: 0,
    maxArgs: 0,
    options: {
      port: {
        type: 'string',
        short: 'p',
        value: '<port>',
        description: 'port, default PORT or 8080 (0 picks a free one)',
      },
      host: { type: 'string', value: '<host>', description: 'interface, default HOST or 127.0.0.1' },
      'data-dir': { type: 'string', value: '<dir>', description: 'data folder, default MARKETLENS_DATA_DIR or ./data' },
      config: { type: 'string', value: '<file>', description: 'a JSON config file (the environment overrides it)' },
      market: {
        type: 'string',
        value: '<sources>',
        description:
          'market sources, default MARKETLENS_MARKET or simulated: e.g. ccxt:binance,yahoo or files:./candles',
      },
      'no-worker': {
        type: 'boolean',
        description: 'schedule the background jobs but leave them to `marketlens worker` processes (needs REDIS_URL)',
      },
      production: {
        type: 'boolean',
        description:
          'production mode (MARKETLENS_ENV=production): no demo user; MARKETLENS_SECRET_KEY and MARKETLENS_PUBLIC_URL required',
      },
    },
    examples: [
      'marketlens serve',
      'marketlens serve --port 3000 --data-dir /var/lib/marketlens',
      'marketlens serve --market ccxt:binance,yahoo',
      'marketlens serve --config marketlens.json --production',
    ],
    notes: [
      'Every setting is read from the environment and from --config (see the README settings table); the environment overrides the file, options override both.',
      'The embedded default prints a fresh session token and API key of the demo user at each start; production prints none. Stop with Ctrl-C or SIGTERM (in-flight requests finish first).',
    ],
  },
  async run(args, io) {
    const port = args.string('port');
    if (port !== undefined && !/^\d+$/.test(port))
      throw usageError(`--port must be an integer 0..65535; got '${port}'`, 'serve');
    let ml: Awaited<ReturnType<typeof createMarketlens>>;
    try {
      const config = loadConfig({
        env: io.env,
        file: args.string('config'),
        overrides: {
          PORT: port,
          HOST: args.string('host'),
          MARKETLENS_DATA_DIR: args.string('data-dir'),
          MARKETLENS_MARKET: args.string('market'),
          MARKETLENS_ENV: args.flag('production') ? 'production' : undefined,
        },
      });
      ml = await createMarketlens(config, args.flag('no-worker') ? { work: false } : {});
    } catch (err) {
      if (err instanceof ConfigError) throw usageError(err.message, 'serve');
      throw err;
    }
    const server = await ml.listen();
    const stop = () => {
      void ml.close().then(() => process.exit(0));
    };
    // Before the banner: a signal that comes before its handler kills the process, drain and all.
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    announceStart(ml, server, { openapi: OPENAPI_PATH, feed: RELEASE_FEED_PATH }, io.stdout);
  },
};
