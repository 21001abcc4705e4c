import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';
import { SETTINGS, SETTINGS_GROUPS, settingsMarkdown } from './settings.js';

function configFile(body: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'marketlens-config-')), 'marketlens.json');
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('loadConfig', () => {
  it('is the embedded default with nothing configured', () => {
    const c = loadConfig({ env: {} });
    expect(c.production).toBe(false);
    expect(c.market.sources).toEqual([{ kind: 'simulated' }]);
    expect(c.server.port).toBe(8080);
    expect(c.log).toEqual({ level: 'info', format: 'pretty', requests: 'info' });
    expect(c.ops).toEqual({ drainMs: 10_000, dbPoolMax: 10, jobsCheckMs: 30_000, readyMarketWindowMs: 600_000 });
  });

  it('reads the operations settings, and the request-line policy: info, debug or a share', () => {
    const c = loadConfig({
      env: {
        MARKETLENS_DRAIN_MS: '2500',
        MARKETLENS_DB_POOL_MAX: '25',
        MARKETLENS_JOBS_CHECK_MS: '1000',
        MARKETLENS_READY_MARKET_WINDOW_MS: '60000',
        MARKETLENS_LOG_REQUESTS: '0.05',
      },
    });
    expect(c.ops).toEqual({ drainMs: 2_500, dbPoolMax: 25, jobsCheckMs: 1_000, readyMarketWindowMs: 60_000 });
    expect(c.log.requests).toBe(0.05);
    expect(loadConfig({ env: { MARKETLENS_LOG_REQUESTS: 'debug' } }).log.requests).toBe('debug');
    for (const bad of ['0', '1', '1.5', '-0.1', 'warn', '.']) {
      expect(() => loadConfig({ env: { MARKETLENS_LOG_REQUESTS: bad } }), bad).toThrow(
        /MARKETLENS_LOG_REQUESTS must be/,
      );
    }
    expect(() => loadConfig({ env: { MARKETLENS_DB_POOL_MAX: '0' } })).toThrow(
      /MARKETLENS_DB_POOL_MAX must be an integer >= 1/,
    );
  });

  it('asks nothing but the storage settings for a migration, in production too', () => {
    const env = {
      MARKETLENS_ENV: 'production',
      DATABASE_URL: 'postgres://db.example/marketlens',
      REDIS_URL: 'redis://cache.example:6379',
    };
    expect(() => loadConfig({ env })).toThrow(/MARKETLENS_SECRET_KEY/);
    const c = loadConfig({ env: { ...env, MARKETLENS_SECRET_KEY: 'c2VjcmV0' }, purpose: 'migrate' });
    expect(c.backend.databaseUrl).toBe('postgres://db.example/marketlens');
    // never read: a migration has no use for it
    expect(c.server.credentialsKey).toBeUndefined();
    expect(loadConfig({ env, purpose: 'migrate' }).production).toBe(true);
  });

  it('reads a file, with the environment and overrides on top', () => {
    const file = configFile({ port: 3000, host: '0.0.0.0', market: ['ccxt:binance', 'yahoo'], syncConcurrency: 2 });
    const c = loadConfig({ env: { PORT: '4000' }, file, overrides: { HOST: '127.0.0.2' } });
    expect(c.server.port).toBe(4000);
    expect(c.server.host).toBe('127.0.0.2');
    expect(c.server.config.sync.concurrency).toBe(2);
    expect(c.market.sources).toEqual([{ kind: 'ccxt', venue: 'binance' }, { kind: 'yahoo' }]);
    expect(c.file).toBe(file);
  });

  it('reads source objects and resolves files: folders against the config file', () => {
    const file = configFile({
      market: [
        { source: 'ccxt:bybit', proxyUrl: 'http://127.0.0.1:9/' },
        { source: 'yahoo', baseUrl: 'http://127.0.0.1:8/', symbols: ['SPY', '^GSPC'] },
        'files:./candles',
      ],
    });
    const c = loadConfig({ env: {}, file });
    expect(c.market.sources).toEqual([
      { kind: 'ccxt', venue: 'bybit', proxyUrl: 'http://127.0.0.1:9/' },
      { kind: 'yahoo', baseUrl: 'http://127.0.0.1:8/', symbols: ['SPY', '^GSPC'] },
      { kind: 'files', dir: join(file, '..', 'candles') },
    ]);
    expect(loadConfig({ env: { MARKETLENS_MARKET: 'ccxt:okx' }, file }).market.sources).toEqual([
      { kind: 'ccxt', venue: 'okx' },
    ]);
  });

  it('stops at unknown keys and bad values with one line naming the key', () => {
    const fails = (input: Parameters<typeof loadConfig>[0], pattern: RegExp) => {
      let error: unknown;
      try {
        loadConfig(input);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
    };
    fails({ env: {}, file: configFile({ prot: 1 }) }, /unknown key 'prot'; allowed: env, host, port/);
    fails({ env: {}, file: configFile('{ not json') }, /is not JSON/);
    fails({ env: {}, file: configFile([1]) }, /JSON object/);
    fails({ env: {}, file: '/nonexistent/marketlens.json' }, /cannot be read \(ENOENT\)/);
    fails({ env: {}, file: configFile({ port: '80' }) }, /'port' must be an integer/);
    fails(
      { env: {}, file: configFile({ market: ['ccxt:nosuch'] }) },
      /'market'.*unknown venue 'nosuch'; one of binance/,
    );
    fails(
      { env: {}, file: configFile({ market: [{ source: 'yahoo', proxyUrl: 'http://x/' }] }) },
      /proxyUrl and sandbox are for ccxt/,
    );
    fails({ env: {}, file: configFile({ market: [{ source: 'yahoo', extra: 1 }] }) }, /'market'/);
    fails({ env: { MARKETLENS_MARKET: 'simulated,yahoo' } }, /MARKETLENS_MARKET: `simulated` cannot be combined/);
    fails({ env: { MARKETLENS_MARKET: 'ccxt:binance,ccxt:binance' } }, /named twice/);
    fails({ env: { MARKETLENS_MARKET: 'kraken' } }, /MARKETLENS_MARKET: 'kraken' is not a market source/);
    fails({ env: { PORT: 'x' } }, /PORT/);
    fails({ env: { MARKETLENS_ENV: 'prod' } }, /MARKETLENS_ENV must be development or production/);
    fails({ env: { MARKETLENS_LOG_LEVEL: 'loud' } }, /MARKETLENS_LOG_LEVEL/);
    fails({ env: { MARKETLENS_MARKET_BACKFILL: '10' } }, /MARKETLENS_MARKET_BACKFILL must be an integer >= 50/);
  });

  it('requires the secret key and the public URL in production, and logs JSON there', () => {
    expect(() => loadConfig({ env: { MARKETLENS_ENV: 'production' } })).toThrow(/MARKETLENS_SECRET_KEY/);
    expect(() => loadConfig({ env: { MARKETLENS_ENV: 'production', MARKETLENS_SECRET_KEY: KEY } })).toThrow(
      /MARKETLENS_PUBLIC_URL/,
    );
    const production = {
      MARKETLENS_ENV: 'production',
      MARKETLENS_SECRET_KEY: KEY,
      MARKETLENS_PUBLIC_URL: 'https://api.example.com',
    };
    // Verification mails a link: without a mail server (or mail file) the start refuses, naming it.
    expect(() => loadConfig({ env: production })).toThrow(/MARKETLENS_SMTP_URL/);
    expect(
      loadConfig({ env: { ...production, MARKETLENS_MAIL_FILE: '/var/lib/marketlens/mail.txt' } }).production,
    ).toBe(true);
    expect(() => loadConfig({ env: { ...production, MARKETLENS_MAIL_FILE: 'mail.txt' } })).toThrow(
      /MARKETLENS_MAIL_FILE must be an absolute path/,
    );
    expect(loadConfig({ env: { ...production, MARKETLENS_EMAIL_VERIFICATION: 'off' } }).production).toBe(true);
    const c = loadConfig({ env: { ...production, MARKETLENS_SMTP_URL: 'smtp://mail.example.com:587' } });
    expect(c.production).toBe(true);
    expect(c.log.format).toBe('json');
    expect(c.server.config.publicUrl).toBe('https://api.example.com');
  });

  it('reads the database and Redis URLs, nested or dotted in the file, and refuses Redis without a shared database', () => {
    const fails = (env: NodeJS.ProcessEnv, file?: string) => {
      try {
        loadConfig({ env, file });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    expect(loadConfig({ env: {} }).backend).toEqual({ databaseUrl: null, redisUrl: null });
    const pg = 'postgres://ml:secret@db.internal:5432/marketlens';
    const nested = configFile({ database: { url: pg }, redis: { url: 'redis://cache:6379' }, secretKey: KEY });
    expect(loadConfig({ env: {}, file: nested }).backend).toEqual({ databaseUrl: pg, redisUrl: 'redis://cache:6379' });
    const dotted = configFile({ 'database.url': pg });
    expect(loadConfig({ env: {}, file: dotted }).backend).toEqual({ databaseUrl: pg, redisUrl: null });
    expect(fails({ DATABASE_URL: pg, REDIS_URL: 'redis://c:6379' })).toMatch(/need one MARKETLENS_SECRET_KEY/);
    expect(
      loadConfig({ env: { DATABASE_URL: pg, REDIS_URL: 'rediss://c:6380', MARKETLENS_SECRET_KEY: KEY } }).backend
        .redisUrl,
    ).toBe('rediss://c:6380');
    expect(fails({ REDIS_URL: 'redis://cache:6379' })).toMatch(/REDIS_URL is set but DATABASE_URL is not/);
    // the password never reaches a message
    const bad = fails({ DATABASE_URL: 'mysql://ml:secret@db/x' });
    expect(bad).toMatch(/DATABASE_URL \(config key database\.url\) must be a postgres/);
    expect(bad).not.toContain('secret');
    expect(fails({ DATABASE_URL: pg, REDIS_URL: 'http://cache' })).toMatch(/REDIS_URL .* must be a redis/);
    expect(fails({}, configFile({ database: { uri: pg } }))).toMatch(/unknown key 'database\.uri'/);
  });

  it('documents every setting in the README table', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    for (const s of SETTINGS) {
      expect(readme, `README lists ${s.env}`).toContain(`\`${s.env}\``);
      expect(readme, `README lists ${s.key}`).toContain(`\`${s.key}\``);
    }
    // The table is generated from SETTINGS: node packages/server/scripts/settings-table.mjs --write
    const begin = readme.indexOf('<!-- settings-table: begin');
    const end = readme.indexOf('<!-- settings-table: end -->');
    expect(begin).toBeGreaterThan(0);
    expect(readme.slice(readme.indexOf('\n', begin) + 1, end)).toBe(`${settingsMarkdown()}\n`);
  });

  it('has one row per key and per variable, each group reading exactly its own rows', () => {
    expect(new Set(SETTINGS.map((s) => s.key)).size).toBe(SETTINGS.length);
    expect(new Set(SETTINGS.map((s) => s.env)).size).toBe(SETTINGS.length);
    const readers = SETTINGS_GROUPS.filter((g) => g.read !== undefined);
    // Every owner but the process reads its rows into the server's configuration.
    expect(SETTINGS_GROUPS.filter((g) => g.read === undefined).map((g) => g.owner)).toEqual(['config/']);
    for (const group of readers) {
      const read = new Set<string>();
      const env = new Proxy({} as NodeJS.ProcessEnv, {
        get: (_, name) => {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      });
      group.read?.(env, { dataDir: '/tmp/marketlens-data' });
      // MARKETLENS_ENV is the process's mode, which the verification mail's defaults depend on.
      read.delete('MARKETLENS_ENV');
      expect([...read].sort(), group.owner).toEqual(group.rows.map((r) => r.env).sort());
    }
  });
});
