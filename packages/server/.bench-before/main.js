#!/usr/bin/env node
import {
  OPENAPI_PATH,
  RELEASE_FEED_PATH,
  openDataDir,
  optionsFromEnv,
  seedDemo,
  startServer
} from "./chunk-4F6RCOAM.js";

// src/main.ts
async function main() {
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
    "",
    `  try: curl -s ${server.url}/v2/config -H 'x-api-key: ${demo.api_key}'`
  ];
  console.log(lines.join("\n"));
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
//# sourceMappingURL=main.js.map