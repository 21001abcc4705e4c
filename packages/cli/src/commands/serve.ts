import {
  OPENAPI_PATH,
  openDataDir,
  optionsFromEnv,
  RELEASE_FEED_PATH,
  seedDemo,
  startServer,
} from '@marketlens/server';
import type { Command } from '../args.js';
import { usageError } from '../errors.js';

export const serveCommand: Command = {
  spec: {
    name: 'serve',
    summary: 'start the REST server (SQLite in the data folder, the simulated venue, no network needed)',
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
    },
    examples: ['marketlens serve', 'marketlens serve --port 3000 --data-dir /var/lib/marketlens'],
    notes: [
      'Environment: PORT, HOST, MARKETLENS_DATA_DIR, MARKETLENS_TRUSTED_PROXIES, MARKETLENS_MIN_CLIENT_VERSION.',
      'Each start prints a fresh session token and API key of the demo user. Stop with Ctrl-C.',
    ],
  },
  async run(args, io) {
    const port = args.string('port');
    if (port !== undefined && !/^\d+$/.test(port))
      throw usageError(`--port must be an integer 0..65535; got '${port}'`, 'serve');
    let options: ReturnType<typeof optionsFromEnv>;
    try {
      options = optionsFromEnv({
        ...io.env,
        ...(port === undefined ? {} : { PORT: port }),
        ...(args.string('host') === undefined ? {} : { HOST: args.string('host') }),
        ...(args.string('data-dir') === undefined ? {} : { MARKETLENS_DATA_DIR: args.string('data-dir') }),
      });
    } catch (err) {
      throw usageError(err instanceof Error ? err.message : String(err), 'serve');
    }
    const storage = openDataDir(options.dataDir);
    const demo = await seedDemo(storage);
    const server = await startServer(options, storage);
    const lines = [
      `marketlens server listening on ${server.url}`,
      `  docs:          ${server.url}/docs`,
      `  openapi:       ${server.url}${OPENAPI_PATH}`,
      `  release feed:  ${server.url}${RELEASE_FEED_PATH}`,
      `  data dir:      ${options.dataDir}`,
      `  demo user:     ${demo.email}`,
      `  session token: ${demo.session_token}`,
      `  api key:       ${demo.api_key}`,
      '',
      `  try: curl -s ${server.url}/v2/config -H 'x-api-key: ${demo.api_key}'`,
    ];
    io.stdout(`${lines.join('\n')}\n`);
    const stop = () => {
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};
