#!/usr/bin/env node
import { seedDemo } from './admin.js';
import { OPENAPI_PATH } from './app.js';
import { RELEASE_FEED_PATH } from './feed/route.js';
import { openDataDir, optionsFromEnv, startServer } from './server.js';

/** `node dist/main.js`: the embedded default (SQLite in ./data, no configuration, no network). */
async function main(): Promise<void> {
  const options = optionsFromEnv();
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
  console.log(lines.join('\n'));
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
