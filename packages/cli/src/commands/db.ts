import { ConfigError, loadConfig, migrateStorage } from '@marketlens/server';
import { type Command, JSON_OPTION } from '../args.js';
import { usageError } from '../errors.js';
import { printJson } from '../output/json.js';

/** `marketlens db migrate`: the storage migrations alone, so that instances never race on them. */
export const dbMigrateCommand: Command = {
  spec: {
    name: 'db migrate',
    summary: 'bring the storage to the current schema (PostgreSQL of DATABASE_URL, else the SQLite data folder)',
    args: '',
    minArgs: 0,
    maxArgs: 0,
    options: {
      'data-dir': { type: 'string', value: '<dir>', description: 'data folder, default MARKETLENS_DATA_DIR or ./data' },
      config: { type: 'string', value: '<file>', description: 'a JSON config file (the environment overrides it)' },
      json: JSON_OPTION,
    },
    examples: [
      'DATABASE_URL=postgres://marketlens@db/marketlens marketlens db migrate',
      'marketlens db migrate --json',
    ],
    notes: [
      'Run it once per release, before the instances start: with several instances behind one address, none has to migrate on its own start (each waits on a lock when it does).',
      'Migrations only add: a database migrated by a newer release keeps working with it, and running the command twice changes nothing (the second says 0 migrations applied).',
      'It needs the database alone: MARKETLENS_SECRET_KEY and MARKETLENS_PUBLIC_URL are neither required nor read.',
    ],
  },
  async run(args, io) {
    let result: Awaited<ReturnType<typeof migrateStorage>>;
    try {
      const config = loadConfig({
        env: io.env,
        file: args.string('config'),
        overrides: { MARKETLENS_DATA_DIR: args.string('data-dir') },
        purpose: 'migrate',
      });
      result = await migrateStorage(config);
    } catch (err) {
      if (err instanceof ConfigError) throw usageError(err.message, 'db migrate');
      throw err;
    }
    if (args.flag('json')) printJson(io, 'db.migration', { ...result });
    else
      io.stdout(
        `${result.engine} ${result.where}: ${result.applied} migration${result.applied === 1 ? '' : 's'} applied, schema version ${result.version}\n`,
      );
  },
};
