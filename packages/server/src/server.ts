import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createSimulatedVenue, type MarketData } from '@marketlens/exchanges';
import { type App, createApp } from './app.js';
import { DEFAULT_CONFIG, type OverviewLlmConfig, type ServerConfig } from './env.js';
import { EXAMPLE_NEWS_FEED, NewsFeeds, parseFeedList } from './news/news.js';
import { createSqliteStorage } from './storage/sqlite/sqlite-storage.js';
import type { Storage } from './storage/types.js';

export interface ServerOptions {
  port: number;
  host: string;
  dataDir: string;
  config: ServerConfig;
}

/**
 * Reads PORT (8080), HOST (127.0.0.1), MARKETLENS_DATA_DIR (./data), MARKETLENS_TRUSTED_PROXIES,
 * MARKETLENS_MIN_CLIENT_VERSION, MARKETLENS_NEWS_FEEDS (comma list of RSS/Atom URLs or file paths;
 * unset: the example feed shipped with the package, read from disk; empty: no news) and
 * MARKETLENS_OPENAI_BASE_URL / _API_KEY / _MODEL (all three: the overview rewrite; else none).
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be an integer 0..65535, got ${env.PORT}`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.MARKETLENS_DATA_DIR || './data'),
    config: {
      ...DEFAULT_CONFIG,
      trustedProxies: (env.MARKETLENS_TRUSTED_PROXIES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
      minClientVersion: env.MARKETLENS_MIN_CLIENT_VERSION || DEFAULT_CONFIG.minClientVersion,
      news: {
        ...DEFAULT_CONFIG.news,
        feeds: env.MARKETLENS_NEWS_FEEDS === undefined ? [EXAMPLE_NEWS_FEED] : parseFeedList(env.MARKETLENS_NEWS_FEEDS),
      },
      overviewLlm: overviewLlmFromEnv(env),
    },
  };
}

function overviewLlmFromEnv(env: NodeJS.ProcessEnv): OverviewLlmConfig | null {
  const baseUrl = env.MARKETLENS_OPENAI_BASE_URL?.trim();
  const apiKey = env.MARKETLENS_OPENAI_API_KEY?.trim();
  const model = env.MARKETLENS_OPENAI_MODEL?.trim();
  if (!baseUrl && !apiKey && !model) return null;
  if (!baseUrl || !apiKey || !model) {
    throw new Error('MARKETLENS_OPENAI_BASE_URL, MARKETLENS_OPENAI_API_KEY and MARKETLENS_OPENAI_MODEL go together');
  }
  if (!/^https?:\/\//i.test(baseUrl))
    throw new Error(`MARKETLENS_OPENAI_BASE_URL must be an http(s) URL, got ${baseUrl}`);
  return { baseUrl, apiKey, model, timeoutMs: 8_000 };
}

/** Opens the embedded SQLite storage in `dataDir` (created if missing). */
export function openDataDir(dataDir: string): Storage {
  mkdirSync(dataDir, { recursive: true });
  return createSqliteStorage(join(dataDir, 'marketlens.sqlite'));
}

export interface RunningServer {
  app: App;
  storage: Storage;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP server; resolves once it listens (port 0 picks a free port). Market data: the simulated venue unless given. */
export function startServer(
  options: ServerOptions,
  storage: Storage = openDataDir(options.dataDir),
  market: MarketData = createSimulatedVenue(),
): Promise<RunningServer> {
  const news = new NewsFeeds({
    ...options.config.news,
    onError: (feed, err) =>
      console.error(`[marketlens] news feed ${feed} failed:`, err instanceof Error ? err.message : err),
  });
  const app = createApp({ storage, config: options.config, now: Date.now, market, news });
  news.start();
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolvePromise({
        app,
        storage,
        url: `http://${host}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => {
              void news
                .stop()
                .then(() => storage.close())
                .then(done);
            });
          }),
      });
    });
    server.on('error', (err) => {
      void news.stop();
      reject(err);
    });
  });
}
