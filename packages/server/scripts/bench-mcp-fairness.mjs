#!/usr/bin/env node
// What a CPU-heavy MCP flood from one address does to other clients' latency (issue 41), on
// loopback with bounded load. One server from the built package in a child process (SQLite, the
// simulated venue, the demo user at Pro, a budget no run spends so the limiter does not hide the
// flood), started twice per round: with the `/mcp` fair gate as shipped (MCP_FAIRNESS) and with a
// gate that bounds nothing (the server before the gate).
//   others  one client from 127.0.0.3 sending, one at a time, GET /v2/config and an MCP
//           `get_fear_greed` call (light), alternately; their latencies are what is measured;
//   flood   `--flood` keep-alive connections from 127.0.0.2 sending `get_asset_analysis` calls back
//           to back, each for an asset, timeframe and depth drawn so most miss the caches (cold
//           analyses of up to 5,000 candles: the CPU-heavy call); with `--cold 0` the same cached
//           analysis every time (many short messages instead of few long ones).
// A round: `--seconds` of others alone (baseline), then `--seconds` of others under the flood.
// Prints per mode and round the others' median and p90 latency alone and under the flood, their
// ratio, the flood's calls completed, and the median over rounds. Exits 0 (a report, not a test).
// Needs `pnpm --filter @marketlens/server build`.
//   node scripts/bench-mcp-fairness.mjs [--rounds 3] [--seconds 6] [--flood 4] [--cold 1]
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg('rounds', 3);
const SECONDS = arg('seconds', 6);
const FLOOD = arg('flood', 4);
// 1: every flood call a cold analysis (cache misses); 0: the same cached analysis again and again.
const COLD = arg('cold', 1) === 1;
const FLOOD_ADDRESS = '127.0.0.2';
const OTHER_ADDRESS = '127.0.0.3';
const REDIRECT = 'http://127.0.0.1:7/cb';

async function serve(mode) {
  const ml = await import('../dist/index.js');
  const { serve: listen } = await import('@hono/node-server');
  const dir = mkdtempSync(join(tmpdir(), `ml-bench-fair-${mode}-`));
  const storage = ml.openDataDir(dir);
  const demo = await ml.seedDemo(storage);
  await ml.setUserTier(storage, ml.DEMO_EMAIL, 'pro');
  const unbounded = { slots: 1_000_000, perKey: 1_000_000, queuePerKey: 1_000_000 };
  const deps = {
    storage,
    now: Date.now,
    config: { ...ml.DEFAULT_CONFIG, rateLimit: { limit: 1_000_000_000, windowMs: 60_000 } },
    mcpGate: new ml.FairGate(mode === 'gate' ? ml.MCP_FAIRNESS : unbounded),
  };
  const app = ml.createApp(deps, { logError: () => {} });
  const server = listen({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.send({ port: info.port, session: demo.session_token });
  });
  process.on('message', (m) => {
    if (m === 'stop') server.close(() => process.exit(0));
  });
}

function call(port, agent, localAddress, method, path, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        localAddress,
        headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The OAuth code flow over HTTP with the demo session: an access token for /mcp. */
async function accessToken(port, session) {
  const agent = new Agent({ keepAlive: false });
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const reg = await call(
    port,
    agent,
    '127.0.0.4',
    'POST',
    '/oauth/register',
    json,
    JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  );
  const { client_id } = JSON.parse(reg.text);
  const approve = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    resource: `http://127.0.0.1:${port}/mcp`,
    action: 'approve',
  }).toString();
  const approved = await call(
    port,
    agent,
    '127.0.0.4',
    'POST',
    '/oauth/authorize',
    { ...form, 'x-session-token': session },
    approve,
  );
  const code = new URL(approved.headers.location ?? '').searchParams.get('code');
  const exchange = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    client_id,
    redirect_uri: REDIRECT,
    code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  }).toString();
  const token = JSON.parse(
    (await call(port, agent, '127.0.0.4', 'POST', '/oauth/token', form, exchange)).text,
  ).access_token;
  if (!token) throw new Error(`no access token: ${approved.status} ${approved.text}`);
  return token;
}

function mcpBody(id, name, args) {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

const ASSETS = [
  'bitcoin',
  'ethereum',
  'solana',
  'ripple',
  'cardano',
  'dogecoin',
  'litecoin',
  'polkadot',
  'chainlink',
  'avalanche-2',
];
const TIMEFRAMES = ['m15', 'h1', 'h4', 'd1'];

async function measure(port, token, flood) {
  const mcpHeaders = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  let stop = false;
  let floodCalls = 0;
  let n = 0;
  const floods = [];
  for (let i = 0; i < flood; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    floods.push(
      (async () => {
        while (!stop) {
          n += 1;
          const args = COLD
            ? {
                asset_id: ASSETS[n % ASSETS.length],
                timeframe: TIMEFRAMES[Math.floor(n / ASSETS.length) % TIMEFRAMES.length],
                limit: 500 + ((n * 977) % 4500),
              }
            : { asset_id: 'bitcoin', timeframe: 'd1', limit: 500 };
          const r = await call(
            port,
            agent,
            FLOOD_ADDRESS,
            'POST',
            '/mcp',
            mcpHeaders,
            mcpBody(n, 'get_asset_analysis', args),
          );
          if (r.status === 200) floodCalls += 1;
        }
      })(),
    );
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const config = [];
  const light = [];
  const until = performance.now() + SECONDS * 1000;
  let i = 0;
  while (performance.now() < until) {
    const t0 = performance.now();
    if (i % 2 === 0) {
      const r = await call(port, agent, OTHER_ADDRESS, 'GET', '/v2/config');
      if (r.status !== 200) throw new Error(`/v2/config ${r.status}`);
      config.push(performance.now() - t0);
    } else {
      const r = await call(port, agent, OTHER_ADDRESS, 'POST', '/mcp', mcpHeaders, mcpBody(i, 'get_fear_greed', {}));
      if (r.status !== 200) throw new Error(`/mcp ${r.status}: ${r.text.slice(0, 200)}`);
      light.push(performance.now() - t0);
    }
    i += 1;
    // A client that waits a little between calls, as a person's app does: the others are not a flood.
    await new Promise((r) => setTimeout(r, 5));
  }
  stop = true;
  await Promise.all(floods);
  agent.destroy();
  return { config, light, floodCalls };
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs) => quantile(xs, 0.5);
const f = (x) => x.toFixed(2);

async function round(mode) {
  const child = fork(new URL(import.meta.url).pathname, ['--child', mode], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { port, session } = await new Promise((resolve) => child.once('message', resolve));
  const token = await accessToken(port, session);
  // Warm the light paths (first calls compile code and fill the caches of the fear-greed index).
  await measure(port, token, 0).catch(() => {});
  const alone = await measure(port, token, 0);
  const flooded = await measure(port, token, FLOOD);
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  const row = {
    mode,
    configAlone: median(alone.config),
    configFlood: median(flooded.config),
    configP90Alone: quantile(alone.config, 0.9),
    configP90Flood: quantile(flooded.config, 0.9),
    mcpAlone: median(alone.light),
    mcpFlood: median(flooded.light),
    floodCalls: flooded.floodCalls,
  };
  console.log(
    `  ${mode.padEnd(9)} /v2/config median ${f(row.configAlone)} -> ${f(row.configFlood)} ms (x${f(row.configFlood / row.configAlone)}), p90 ${f(row.configP90Alone)} -> ${f(row.configP90Flood)} ms; ` +
      `light MCP median ${f(row.mcpAlone)} -> ${f(row.mcpFlood)} ms (x${f(row.mcpFlood / row.mcpAlone)}); flood: ${row.floodCalls} analyses in ${SECONDS} s`,
  );
  return row;
}

async function main() {
  console.log(
    `bench-mcp-fairness: ${ROUNDS} rounds, ${SECONDS} s per phase, flood of ${FLOOD} connections (${COLD ? 'cold' : 'cached'} analyses); load average ${loadavg().map(f).join(' ')}`,
  );
  const rows = { gate: [], ungated: [] };
  for (let r = 0; r < ROUNDS; r++) {
    console.log(`round ${r + 1}`);
    // Alternate the order so drift in the machine's load falls on both alike.
    for (const mode of r % 2 === 0 ? ['gate', 'ungated'] : ['ungated', 'gate']) rows[mode].push(await round(mode));
  }
  console.log('median over rounds (ratio = under the flood / alone):');
  for (const [mode, list] of Object.entries(rows)) {
    const c = median(list.map((x) => x.configFlood / x.configAlone));
    const m = median(list.map((x) => x.mcpFlood / x.mcpAlone));
    const calls = median(list.map((x) => x.floodCalls));
    console.log(`  ${mode.padEnd(9)} /v2/config x${f(c)}, light MCP x${f(m)}, flood ${calls} analyses per phase`);
  }
  console.log(`load average after: ${loadavg().map(f).join(' ')}`);
}

if (process.argv[2] === '--child') {
  await serve(process.argv[3]);
} else {
  await main();
}
