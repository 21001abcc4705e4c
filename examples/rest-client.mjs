// A REST client with an API key. Against your own server:
//   MARKETLENS_URL=http://127.0.0.1:8080 MARKETLENS_API_KEY=mlk_... node rest-client.mjs
// Without them it starts a throwaway server on a free port (temporary data folder, the
// simulated venue) and uses its demo key, so the example runs anywhere, offline.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { optionsFromEnv, seedDemo, startServer } from '@marketlens/server';

let base = process.env.MARKETLENS_URL;
let key = process.env.MARKETLENS_API_KEY;
let server;
if (!base || !key) {
  const dataDir = mkdtempSync(join(tmpdir(), 'marketlens-example-'));
  const options = { ...optionsFromEnv({}), port: 0, dataDir };
  server = await startServer(options);
  key = (await seedDemo(server.storage)).api_key;
  base = server.url;
}

/** GET a route with the key; returns the envelope's data or throws the ErrorResponse. */
async function get(path, headers = {}) {
  const res = await fetch(new URL(path, base), { headers: { 'x-api-key': key, ...headers } });
  const body = await res.json();
  if (!body.success) throw Object.assign(new Error(`${res.status} ${body.code}: ${body.message}`), { body });
  return { data: body.data, remaining: res.headers.get('x-ratelimit-remaining') };
}

try {
  const { data: config } = await get('/v2/config');
  console.log(
    `caller: ${config.caller.state}, tier ${config.caller.tier}, default timeframe ${config.analysis.default_timeframe}`,
  );
  const { data: a, remaining } = await get('/v2/analysis/bitcoin');
  console.log(
    `bitcoin ${a.timeframe} ${a.market_type} ${a.pair}: ${a.signal.action} (confidence ${a.signal.confidence.toFixed(2)}), Fear & Greed ${a.fear_greed.score} ${a.fear_greed.zone}`,
  );
  console.log(
    `nearest support ${a.levels.nearest_support?.mid ?? 'none'}, resistance ${a.levels.nearest_resistance?.mid ?? 'none'}; rate budget left ${remaining}`,
  );
  const { data: overview } = await get('/v2/analysis/solana/overview', { 'x-locale': 'de' });
  console.log(`overview (de): ${overview.text.slice(0, 160)}...`);
  try {
    await get('/v2/analysis/bitcoin?timeframe=h1');
  } catch (e) {
    console.log(`h1 on a free key: ${e.message}`); // 402, code 1004
  }
} finally {
  await server?.close();
}
