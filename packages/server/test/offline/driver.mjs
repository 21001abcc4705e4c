/**
 * Runs inside a closed network namespace (`unshare -rn`, loopback up, nothing else): starts the
 * built server main with no configuration at all, as `pnpm start` does (a temporary working
 * folder, `PORT=0`), reads the demo user's session token and API key from its banner, fetches the
 * OpenAPI document it serves, and sends one request per documented operation built from the
 * document alone: path and query parameters from their examples (else default, enum, or a
 * placeholder), a JSON body from the schema (required properties, examples where given), the
 * demo's API key or session where the operation's security asks for one. Operations that end the
 * demo's session run last. A path parameter named `exchange_id` is also tried with every venue
 * `GET /v1/exchanges` lists. Prints one JSON object: the answers and every network attempt the
 * server made (see offline-guard.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const MAIN = resolve(HERE, '../../dist/main.js');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const REQUEST_TIMEOUT_MS = 30_000;

const work = mkdtempSync(join(tmpdir(), 'marketlens-offline-'));
const guardLog = join(work, 'network-attempts.log');
writeFileSync(guardLog, '');

/** Starts the main; resolves with its URL, demo credentials and the child. */
async function start() {
  const child = spawn(process.execPath, ['--import', join(HERE, 'offline-guard.mjs'), MAIN], {
    cwd: work,
    // No MARKETLENS_* variable, no DATABASE_URL or REDIS_URL: the embedded default.
    env: { PATH: process.env.PATH, HOME: work, PORT: '0', OFFLINE_GUARD_LOG: guardLog },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const session = /session token:\s+(\S+)/.exec(out)?.[1];
    const apiKey = /api key:\s+(\S+)/.exec(out)?.[1];
    if (url && session && apiKey) return { child, url, session, apiKey, output: () => out };
    if (child.exitCode !== null) throw new Error(`the server exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start: ${out}`);
}

function deref(doc, schema) {
  let s = schema;
  for (let i = 0; s?.$ref && i < 20; i++) {
    s = s.$ref
      .slice(2)
      .split('/')
      .reduce((o, k) => o?.[k], doc);
  }
  return s ?? {};
}

let unique = 0;

/** A value for `schema` (named `name`), from the document's own example, default, enum, else made up. */
function sampleOf(doc, raw, name = '') {
  const schema = deref(doc, raw);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((v) => v !== null) ?? null;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sampleOf(doc, options.find((o) => deref(doc, o).type !== 'null') ?? options[0], name);
  if (schema.allOf) {
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(doc, part, name)));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const out = {};
    const required = new Set(schema.required ?? []);
    for (const [key, prop] of Object.entries(schema.properties ?? {})) {
      const p = deref(doc, prop);
      if (required.has(key) || p.example !== undefined) out[key] = sampleOf(doc, p, key);
    }
    return out;
  }
  if (type === 'array') return (schema.minItems ?? 0) > 0 ? [sampleOf(doc, schema.items, name)] : [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1;
  if (type === 'boolean') return false;
  if (/email/i.test(name) || schema.format === 'email') return `offline-${++unique}@example.com`;
  if (/password/i.test(name)) return 'offline-password-1';
  if (schema.format === 'uri' || schema.format === 'url') return 'http://127.0.0.1:9/offline';
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

/** The requests of one operation: path and query filled in, body and credential. */
function requestsOf(doc, path, method, op, venues) {
  const params = (op.parameters ?? []).map((p) => deref(doc, p));
  const pathParams = params.filter((p) => p.in === 'path');
  const query = new URLSearchParams();
  for (const p of params.filter((x) => x.in === 'query')) {
    const v = p.example ?? deref(doc, p.schema).example;
    if (p.required || v !== undefined) query.set(p.name, String(p.required ? sampleOf(doc, p.schema, p.name) : v));
    if (p.required && p.example !== undefined) query.set(p.name, String(p.example));
  }
  const fill = (override) =>
    path.replace(/\{([^}]+)\}/g, (_, key) => {
      if (override?.[key] !== undefined) return encodeURIComponent(override[key]);
      const p = pathParams.find((x) => x.name === key);
      const example = p?.example ?? deref(doc, p?.schema).example;
      return encodeURIComponent(String(example ?? sampleOf(doc, p?.schema, key) ?? 'x'));
    });
  const security = op.security ?? doc.security ?? [];
  const names = security.flatMap((s) => Object.keys(s));
  const credential = names.includes('api_key') ? 'api_key' : names.includes('session') ? 'session' : null;
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const body = bodySchema === undefined ? undefined : JSON.stringify(sampleOf(doc, bodySchema));
  const qs = query.toString();
  const variants = [fill()];
  if (pathParams.some((p) => p.name === 'exchange_id')) {
    for (const id of venues) variants.push(fill({ exchange_id: id }));
  }
  return [...new Set(variants)].map((p) => ({
    method: method.toUpperCase(),
    path: `${p}${qs ? `?${qs}` : ''}`,
    operation: `${method.toUpperCase()} ${path}`,
    credential,
    body,
  }));
}

/** Ends the demo's session or account: sent after everything else. */
function endsSession(r) {
  return r.operation === 'POST /v1/auth/logout' || r.operation === 'DELETE /v1/users/me';
}

async function send(server, r) {
  const headers = { accept: 'application/json' };
  if (r.credential === 'api_key') headers['x-api-key'] = server.apiKey;
  if (r.credential === 'session') headers['x-session-token'] = server.session;
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
  const started = Date.now();
  try {
    const res = await fetch(`${server.url}${r.path}`, {
      method: r.method,
      headers,
      body: r.body,
      signal: abort.signal,
    });
    let code = null;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      code = (await res.json().catch(() => null))?.code ?? null;
    } else {
      // A stream answers with its headers and keeps going: seeing the status is enough.
      await res.body?.cancel();
    }
    return { ...r, body: undefined, status: res.status, code, ms: Date.now() - started };
  } catch (error) {
    return {
      ...r,
      body: undefined,
      status: 0,
      code: String(error?.cause?.code ?? error?.name ?? error),
      ms: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
  }
}

async function main() {
  const server = await start();
  try {
    const docRes = await fetch(`${server.url}/docs/openapi.json`);
    const doc = await docRes.json();
    const listed = await fetch(`${server.url}/v1/exchanges`, { headers: { 'x-api-key': server.apiKey } });
    const venues = ((await listed.json()).data ?? []).map((v) => v.id).filter((id) => typeof id === 'string');
    const operations = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) if (item[method]) operations.push({ path, method, op: item[method] });
    }
    const requests = operations.flatMap(({ path, method, op }) => requestsOf(doc, path, method, op, venues));
    const ordered = [...requests.filter((r) => !endsSession(r)), ...requests.filter(endsSession)];
    const answers = [];
    for (const r of ordered) answers.push(await send(server, r));
    const attempts = readFileSync(guardLog, 'utf8').split('\n').filter(Boolean);
    process.stdout.write(
      `${JSON.stringify({
        url: server.url,
        operations: operations.map(({ path, method }) => `${method.toUpperCase()} ${path}`),
        venues,
        answers,
        attempts,
      })}\n`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    if (process.env.OFFLINE_DRIVER_VERBOSE) process.stderr.write(server.output());
  }
}

main().catch((error) => {
  process.stderr.write(`offline driver: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
