#!/usr/bin/env node
// Limits under real load (issue #13): a real marketlens server (the built dist) in a child
// process, configured with MARKETLENS_TRUSTED_PROXIES=127.0.0.1 semantics (trustedProxies
// ['127.0.0.1']), hammered on loopback by autocannon with many connections, each request from
// one of many client IPs (X-Forwarded-For) and, in the second phase, with one of many keys.
//   Phase 1, per-IP budget: every IP sends more than its budget of GET /v2/config (weight 1) and
//     of POST /v1/auth/login with an invalid body (weight 20, refused before scrypt); each IP must
//     be admitted exactly floor(2000 / weight) of each, never more.
//   Phase 2, daily allowance: accounts of each tier with several keys each send more than their
//     allowance (100 free, 1,000 Pro, 5,000 Elite), spread over many IPs so the per-IP budget is
//     not what refuses; each account must be admitted exactly its allowance, never more.
// Prints a table and exits 1 on any difference. Needs `pnpm --filter @marketlens/server build`.
//   node packages/server/scripts/load-reliability.mjs [--ips 40] [--accounts 2] [--keys 3] [--connections 100]
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

const LIMIT = 2000;
const TIERS = ['free', 'pro', 'elite'];

/** The child: a real server on a temp data dir, seeded with accounts and keys; reports over IPC. */
async function serve() {
  const server = await import('../dist/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'ml-load-'));
  const storage = server.openDataDir(dir);
  const accountsPerTier = Number(process.env.LOAD_ACCOUNTS);
  const keysPerAccount = Number(process.env.LOAD_KEYS);
  const now = Date.now();
  const accounts = [];
  for (const tier of TIERS) {
    for (let a = 0; a < accountsPerTier; a++) {
      const user = {
        id: randomUUID(),
        email: `load-${tier}-${a}@example.com`,
        // Never logged into: the keys are the credential under test.
        password_hash: 'unused',
        tier: 'free',
        created_at: now,
      };
      await storage.users.create(user, []);
      if (tier !== 'free') await server.grantTier(storage, user.id, tier, 'admin', 30, now);
      const keys = [];
      for (let k = 0; k < keysPerAccount; k++) keys.push((await server.createApiKey(storage, user.id, {}, now)).key);
      accounts.push({ id: user.id, tier, keys, allowance: server.API_KEY_DAILY_ALLOWANCE[tier] });
    }
  }
  const config = {
    ...server.DEFAULT_CONFIG,
    trustedProxies: ['127.0.0.1'],
    rateLimit: { limit: LIMIT, windowMs: 60_000 },
    news: { ...server.DEFAULT_CONFIG.news, feeds: [] },
  };
  const running = await server.startServer({ port: 0, host: '127.0.0.1', dataDir: dir, config }, storage);
  process.send({ url: running.url, accounts, weights: server.RATE_LIMIT_WEIGHTS });
  process.on('disconnect', () => {
    void running.close().then(() => rmSync(dir, { recursive: true, force: true }));
  });
}

/** autocannon over `plan` (one entry per request: method, path, headers, body, tag); counts statuses per tag. */
async function hammer(autocannon, url, plan, connections) {
  const counts = new Map();
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    amount: plan.length,
    requests: [
      {
        setupRequest(req, context) {
          const p = plan[next++ % plan.length];
          context.tag = p.tag;
          return { ...req, method: p.method, path: p.path, headers: p.headers, body: p.body };
        },
        onResponse(status, _body, context) {
          let c = counts.get(context.tag);
          if (!c) {
            c = new Map();
            counts.set(context.tag, c);
          }
          c.set(status, (c.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  return { counts, result };
}

function shuffle(xs) {
  // Deterministic (LCG), so runs are comparable; interleaves IPs and keys across connections.
  let s = 12345;
  for (let i = xs.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

async function main() {
  if (process.argv[2] === 'serve') return serve();
  const ips = arg('ips', 40);
  const accountsPerTier = arg('accounts', 2);
  const keys = arg('keys', 3);
  const connections = arg('connections', 100);
  const { default: autocannon } = await import('autocannon');
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    stdio: 'inherit',
    env: { ...process.env, LOAD_ACCOUNTS: String(accountsPerTier), LOAD_KEYS: String(keys) },
  });
  const info = await new Promise((resolve) => child.once('message', resolve));
  const failures = [];
  const rows = [];

  // Phase 1: per-IP budget, two weights, every IP over budget, all interleaved.
  const extra = 100;
  const loginWeight = info.weights['POST /v1/auth/login'];
  const plan1 = [];
  for (let i = 0; i < ips; i++) {
    const ip = `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    const light = i % 2 === 0;
    const n = light ? LIMIT + extra : Math.floor(LIMIT / loginWeight) + extra;
    for (let k = 0; k < n; k++) {
      plan1.push(
        light
          ? { tag: ip, method: 'GET', path: '/v2/config', headers: { 'x-forwarded-for': ip } }
          : {
              tag: ip,
              method: 'POST',
              path: '/v1/auth/login',
              headers: { 'x-forwarded-for': ip, 'content-type': 'application/json' },
              body: '{}',
            },
      );
    }
  }
  const t1 = Date.now();
  const p1 = await hammer(autocannon, info.url, shuffle(plan1), connections);
  const s1 = (Date.now() - t1) / 1000;
  if (s1 >= 60) failures.push(`phase 1 took ${s1.toFixed(1)} s, longer than one window: counts are not exact`);
  for (let i = 0; i < ips; i++) {
    const ip = `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    const light = i % 2 === 0;
    const want = light ? LIMIT : Math.floor(LIMIT / loginWeight);
    const c = p1.counts.get(ip) ?? new Map();
    const refused = c.get(429) ?? 0;
    const admitted = [...c].filter(([s]) => s !== 429).reduce((a, [, n]) => a + n, 0);
    if (admitted !== want || refused !== extra || c.has(500)) {
      failures.push(
        `${ip} ${light ? 'GET /v2/config' : 'POST /v1/auth/login'}: admitted ${admitted} (want ${want}), refused ${refused} (want ${extra}), statuses ${JSON.stringify([...c])}`,
      );
    }
  }
  rows.push([
    'per-IP budget',
    `${ips} IPs x (GET /v2/config w1 or POST /v1/auth/login w${loginWeight}), +${extra} each`,
    plan1.length,
    Math.round(p1.result.requests.average),
    p1.result.latency.p99,
    s1.toFixed(1),
  ]);

  // Phase 2: daily allowances, every account over it, keys and IPs interleaved.
  const plan2 = [];
  let n = 0;
  for (const a of info.accounts) {
    for (let k = 0; k < a.allowance + extra; k++) {
      // ~1,500 requests per IP at most: the per-IP budget never refuses here.
      const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${Math.floor((n & 255) / 2)}`;
      n++;
      plan2.push({
        tag: a.id,
        method: 'GET',
        path: '/v2/config',
        headers: { 'x-forwarded-for': ip, 'x-api-key': a.keys[k % a.keys.length] },
      });
    }
  }
  const t2 = Date.now();
  const p2 = await hammer(autocannon, info.url, shuffle(plan2), connections);
  const s2 = (Date.now() - t2) / 1000;
  for (const a of info.accounts) {
    const c = p2.counts.get(a.id) ?? new Map();
    const ok = c.get(200) ?? 0;
    const refused = c.get(429) ?? 0;
    if (ok !== a.allowance || refused !== extra) {
      failures.push(
        `${a.tier} account ${a.id}: admitted ${ok} (want ${a.allowance}), refused ${refused} (want ${extra}), statuses ${JSON.stringify([...c])}`,
      );
    }
  }
  rows.push([
    'daily allowance',
    `${info.accounts.length} accounts (${accountsPerTier} per tier) x ${keys} keys, allowance +${extra} each`,
    plan2.length,
    Math.round(p2.result.requests.average),
    p2.result.latency.p99,
    s2.toFixed(1),
  ]);
  child.disconnect();

  console.log(`${connections} connections, loopback, trusted proxy 127.0.0.1\n`);
  console.log('| phase | load | requests | req/s | p99 ms | seconds |\n|---|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  if (failures.length > 0) {
    console.log(`\nFAILED (${failures.length}):`);
    for (const f of failures.slice(0, 40)) console.log(`  ${f}`);
    process.exit(1);
  }
  console.log(
    '\nOK: every IP admitted exactly floor(2000 / weight) per window and every account exactly its allowance.',
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
