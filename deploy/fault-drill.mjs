#!/usr/bin/env node
// Load through the proxy while a fault happens, and what the clients saw: the drill behind the
// fault table of docs/reliability.md (issue 44). Run it against deploy/local-cluster.sh:
//
//   node deploy/fault-drill.mjs <url> <seconds> [fault-at-seconds] [-- fault command ...]
//
// C keep-alive clients (CLIENTS, default 16) send, in turn, a POST (/v1/auth/login with a body the
// server refuses, 400: a write-shaped request nginx never retries once sent) and a GET
// (/v2/config), each from its own X-Forwarded-For address (so the per-address limit is not what
// is measured). At `fault-at-seconds` the fault command runs (e.g. `deploy/local-cluster.sh
// restart 2`, `kill -9 PID`). Prints one JSON object: answers by status, transport errors by
// code (a reset after sending is ECONNRESET), the first and last non-2xx/4xx after the fault, and
// the time from the fault to the first answer that is no longer a failure.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';

const [url, secondsRaw, faultAtRaw, ...rest] = process.argv.slice(2);
if (url === undefined || secondsRaw === undefined) {
  console.error('usage: fault-drill.mjs <url> <seconds> [fault-at-seconds] [-- command ...]');
  process.exit(2);
}
const seconds = Number(secondsRaw);
const faultAt = faultAtRaw === undefined ? null : Number(faultAtRaw);
const command = rest[0] === '--' ? rest.slice(1) : rest;
const clients = Number(process.env.CLIENTS ?? 16);
const target = new URL(url);
const t0 = performance.now();
const now = () => (performance.now() - t0) / 1000;

const status = {};
const errors = {};
const failures = []; // [t, what]
let faultTime = null;
let sent = 0;

function once(agent, method, path, body, ip) {
  return new Promise((resolve) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        agent,
        headers: {
          'x-forwarded-for': ip,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
        timeout: 15_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode }));
        res.on('error', (e) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

async function client(i) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ip = `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  let n = 0;
  while (now() < seconds) {
    const post = n++ % 2 === 0;
    const key = `${post ? 'POST' : 'GET'}`;
    const r = post
      ? await once(agent, 'POST', '/v1/auth/login', JSON.stringify({ email: 'not-an-address', password: '' }), ip)
      : await once(agent, 'GET', '/v2/config', undefined, ip);
    sent++;
    const t = now();
    if (r.error !== undefined) {
      errors[`${key} ${r.error}`] = (errors[`${key} ${r.error}`] ?? 0) + 1;
      failures.push([t, `${key} ${r.error}`]);
      await new Promise((res) => setTimeout(res, 50));
    } else {
      status[`${key} ${r.status}`] = (status[`${key} ${r.status}`] ?? 0) + 1;
      if (r.status >= 500) failures.push([t, `${key} ${r.status}`]);
    }
  }
  agent.destroy();
}

let faultOutput = '';
let faultDone = null;
if (faultAt !== null && command.length > 0) {
  setTimeout(() => {
    faultTime = now();
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (faultOutput += d));
    child.stderr.on('data', (d) => (faultOutput += d));
    faultDone = new Promise((r) => child.on('exit', (code) => r({ code, at: now() })));
  }, faultAt * 1000);
}

await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
const fault = faultDone === null ? null : await faultDone;
const after = faultTime === null ? failures : failures.filter(([t]) => t >= faultTime);
console.log(
  JSON.stringify(
    {
      clients,
      seconds,
      requests: sent,
      perSecond: Math.round(sent / seconds),
      status,
      errors,
      fault:
        faultTime === null
          ? null
          : {
              command: command.join(' '),
              at: faultTime,
              exit: fault,
              output: faultOutput.trim().split('\n').slice(-2),
            },
      failuresAfterFault: after.length,
      firstFailure: after[0] ?? null,
      lastFailure: after.at(-1) ?? null,
      recoverySeconds:
        after.length === 0 || faultTime === null ? 0 : Math.round((after.at(-1)[0] - faultTime) * 100) / 100,
    },
    null,
    2,
  ),
);
