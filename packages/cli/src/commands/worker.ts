import { ConfigError, createMarketlens, loadConfig } from '@marketlens/server';
import type { Command } from '../args.js';
import { usageError } from '../errors.js';

export const workerCommand: Command = {
  spec: {
    name: 'worker',
    summary:
      'work the background jobs (account sync, alerts, pilot, market refresh) of the instances sharing REDIS_URL',
    args: '',
    minArgs: 0,
    maxArgs: 0,
    options: {
      config: { type: 'string', value: '<file>', description: 'a JSON config file (the environment overrides it)' },
      market: {
        type: 'string',
        value: '<sources>',
        description: 'market sources, default MARKETLENS_MARKET: the same as the API instances',
      },
      'metrics-port': {
        type: 'string',
        value: '<port>',
        description:
          'serve /metrics (job runs, failures, schedule checks) and /healthz on HOST:<port>, to MARKETLENS_METRICS_ALLOW (loopback by default)',
      },
    },
    examples: ['marketlens worker', 'marketlens worker --config marketlens.json'],
    notes: [
      'Needs REDIS_URL, DATABASE_URL and MARKETLENS_SECRET_KEY, the same as the API instances; serves no HTTP.',
      'Any number of workers share the jobs; one stopped with SIGKILL has its job finished by another within 30 s. Stop with Ctrl-C or SIGTERM (jobs under way finish first).',
    ],
  },
  async run(args, io) {
    const metricsPort = args.string('metrics-port');
    if (metricsPort !== undefined && !/^\d+$/.test(metricsPort)) {
      throw usageError(`--metrics-port must be an integer 0..65535; got '${metricsPort}'`, 'worker');
    }
    let ml: Awaited<ReturnType<typeof createMarketlens>>;
    let metricsUrl: string | null = null;
    try {
      const config = loadConfig({
        env: io.env,
        file: args.string('config'),
        overrides: { MARKETLENS_MARKET: args.string('market') },
      });
      ml = await createMarketlens(config, { demo: false });
      ({ metricsUrl } = await ml.work(metricsPort === undefined ? {} : { metricsPort: Number(metricsPort) }));
    } catch (err) {
      if (err instanceof ConfigError) throw usageError(err.message, 'worker');
      throw err;
    }
    const line = `marketlens worker ${process.pid} working the jobs on ${new URL(ml.config.backend.redisUrl ?? '').host}${metricsUrl === null ? '' : `, metrics on ${metricsUrl}/metrics`}`;
    const stop = () => {
      void ml.close().then(() => process.exit(0));
    };
    // Before the banner: a signal that comes before its handler kills the process, jobs and all.
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (ml.config.log.format === 'json') ml.logger.info({ process: `worker-${process.pid}` }, line);
    else io.stdout(`${line}\n`);
  },
};
