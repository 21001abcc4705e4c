#!/usr/bin/env node
import { OPENAPI_PATH } from './app.js';
import { loadConfig } from './config/load.js';
import { announceStart, createMarketlens } from './marketlens.js';
import { RELEASE_FEED_PATH } from './platform/feed/route.js';

/**
 * `node dist/main.js`: the configuration of the environment and of the file `MARKETLENS_CONFIG`
 * names; with neither, the embedded default (SQLite in ./data, the simulated venue, no network).
 */
async function main(): Promise<void> {
  const config = loadConfig({ file: process.env.MARKETLENS_CONFIG || undefined });
  const ml = await createMarketlens(config);
  const server = await ml.listen();
  const stop = () => {
    void ml.close().then(() => process.exit(0));
  };
  // Before the banner: a supervisor that reads it may signal at once, and a signal that comes
  // before its handler kills the process outright, drain and all.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  announceStart(ml, server, { openapi: OPENAPI_PATH, feed: RELEASE_FEED_PATH }, (text) => process.stdout.write(text));
}

main().catch((err: unknown) => {
  // One line, never a stack trace: configuration errors name the key and what is allowed.
  console.error(`marketlens: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
