import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DocOperation, type ServedDocument, servedDocument } from '../../../test/reliability/document.js';
import {
  deref,
  type JsonSchema,
  type Resolver,
  resolverOf,
  validArb,
} from '../../../test/reliability/schema-arbitrary.js';
import { type Harness, harness } from '../../../test/support/harness.js';
import { bodyText, fillPath } from '../../../test/support/operations.js';
import { grantTier } from '../../auth/tiers.js';

/**
 * The document and the server agree on what a valid request is. For every operation of the served
 * OpenAPI document, requests are built from the document alone: its examples, every value of each
 * enum, and the edges of each declared bound (minimum, maximum, minimum - 1, maximum + 1, the
 * exclusive bound itself, the longest string allowed and one longer, a string breaking the
 * pattern or format), for each parameter and each top-level property of a JSON body (each
 * `anyOf` shape of it), plus a body without each required property, one with an extra key and `{}`.
 * ajv decides what the document says of each request; the server, called as an Elite account
 * (so no tier gate answers first), must then agree: a request the document accepts is not refused
 * with a 400 for its shape, and one the document refuses is answered 400 with an `ErrorResponse`.
 *
 * A 400 "for its shape" is the one the validation step answers (`Invalid query: ...`,
 * `Invalid json: ...`, `Invalid notification: ...`); other 400s (an unknown asset, a target far
 * from the live price) depend on data the document cannot state and are not disagreements.
 */

type Json = unknown;

interface Case {
  op: DocOperation;
  /** What was varied, for the failure message. */
  what: string;
  /** Parameter values by name, typed as the document declares them (serialised for the wire). */
  params: Map<string, Json>;
  body: Json;
}

/** A 400 from the validation step (the default hook, the alerts' payload hook, the signal controls). */
const SHAPE_REFUSAL = /^Invalid (query|param|json|header|cookie|notification):/;

let h: Harness;
let doc: ServedDocument;
let resolve: Resolver;
let session: string;
let apiKey: string;
let ipCounter = 0;

beforeAll(async () => {
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const user = await h.signup();
  await grantTier(h.storage, user.userId, 'elite', 'admin', 365, h.clock.now);
  session = user.token;
  apiKey = await h.apiKey(user.token);
  doc = await servedDocument((p) => h.request(p));
  resolve = resolverOf(doc.raw);
});

/** The value a parameter is sent with when it is not the one varied: the document's own. */
function baseValue(schema: JsonSchema, example: Json): Json {
  const s = deref(schema, resolve);
  const candidates = [example, s.example, s.examples?.[0], s.default, s.enum?.find((v) => v !== ''), s.minimum];
  for (const v of candidates) if (v !== undefined) return v;
  const branches = (s.anyOf ?? s.oneOf ?? []).map((b) => deref(b, resolve));
  for (const b of branches) {
    const v = baseValue(b, undefined);
    if (v !== undefined && v !== '') return v;
  }
  if (s.format === 'uuid') return randomUUID();
  if (s.type === 'boolean') return true;
  if (s.type === 'integer' || s.type === 'number') return 1;
  if (s.type === 'string') return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  return undefined;
}

/** Values at and beyond the edges the schema declares (the document's verdict comes from ajv). */
function edgeValues(schema: JsonSchema, depth = 0): Json[] {
  const s = deref(schema, resolve);
  const out: Json[] = [];
  for (const b of s.anyOf ?? s.oneOf ?? []) if (depth < 3) out.push(...edgeValues(b, depth + 1));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (s.enum) out.push(...s.enum, '__not_in_enum__');
  if (types.includes('integer') || types.includes('number')) {
    for (const bound of [s.minimum, s.maximum]) if (bound !== undefined) out.push(bound, bound - 1, bound + 1);
    for (const bound of [s.exclusiveMinimum, s.exclusiveMaximum]) {
      if (bound !== undefined) out.push(bound, bound - 0.5, bound + 0.5);
    }
    if (types.includes('integer') && !types.includes('number')) out.push(2.5);
    out.push('not-a-number');
  }
  if (types.includes('string') && !s.enum) {
    if (s.maxLength !== undefined) out.push('x'.repeat(s.maxLength), 'x'.repeat(s.maxLength + 1));
    if (s.minLength !== undefined && s.minLength > 0) out.push('x'.repeat(s.minLength), 'x'.repeat(s.minLength - 1));
    if (s.pattern) out.push('x y', '-', '.');
    if (s.format === 'uuid') out.push('not-a-uuid');
    if (s.format === 'date-time') out.push('yesterday', '2026-01-15T12:00:00Z');
    if (s.format === 'email') out.push('no-at-sign');
  }
  if (types.includes('boolean')) out.push(true, false, 'maybe');
  return [...new Map(out.map((v) => [JSON.stringify(v), v])).values()];
}

/** The shapes of a body: each branch of a top-level `anyOf` of objects, else the body schema itself. */
function shapesOf(schema: JsonSchema): JsonSchema[] {
  const s = deref(schema, resolve);
  const branches = (s.anyOf ?? []).map((b) => deref(b, resolve)).filter((b) => b.properties);
  return branches.length > 0 ? branches : [s];
}

function baseBody(schema: JsonSchema, shape: JsonSchema): Record<string, Json> {
  const s = deref(schema, resolve);
  if (s.example !== undefined && doc.ajv.validate(s, s.example)) return s.example as Record<string, Json>;
  // A draw of the document's own generator, with the properties' examples preferred.
  const [drawn] = fc.sample(validArb(shape, resolve), { numRuns: 1, seed: 22 }) as Record<string, Json>[];
  const body = withExamples(shape, drawn) as Record<string, Json>;
  return withExamples({ properties: s.properties }, body) as Record<string, Json>;
}

/** `value` with every property drawn replaced by its schema's example, where it has one. */
function withExamples(schema: JsonSchema, value: Json): Json {
  const s = deref(schema, resolve);
  if (s.example !== undefined) return s.example;
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !s.properties) return value;
  const out: Record<string, Json> = { ...(value as Record<string, Json>) };
  for (const [k, p] of Object.entries(s.properties)) if (k in out) out[k] = withExamples(p, out[k]);
  return out;
}

function casesOf(op: DocOperation): Case[] {
  const base = new Map<string, Json>();
  for (const p of op.parameters) {
    if (!p.schema) continue;
    const v = baseValue(p.schema, p.example);
    if (p.required && v !== undefined) base.set(p.name, v);
  }
  const bodies: { what: string; body: Json }[] = [];
  if (op.body) {
    for (const shape of shapesOf(op.body.schema)) {
      const b = baseBody(op.body.schema, shape);
      bodies.push({ what: 'body', body: b });
      for (const [k, p] of Object.entries(shape.properties ?? {})) {
        for (const v of edgeValues(p))
          bodies.push({ what: `body.${k}=${JSON.stringify(v).slice(0, 40)}`, body: { ...b, [k]: v } });
      }
      for (const k of shape.required ?? []) {
        const { [k]: _drop, ...rest } = b;
        bodies.push({ what: `body without ${k}`, body: rest });
      }
      bodies.push({ what: 'body with an extra key', body: { ...b, __extra__: 1 } });
      bodies.push({ what: 'an empty body object', body: {} });
    }
  }
  const baseBodyValue = bodies[0]?.body;
  const cases: Case[] = [{ op, what: 'the document’s example request', params: base, body: baseBodyValue }];
  for (const b of bodies.slice(1)) cases.push({ op, what: b.what, params: base, body: b.body });
  for (const p of op.parameters) {
    if (!p.schema) continue;
    for (const v of edgeValues(p.schema)) {
      // An empty or slash-bearing path segment addresses another route, not this parameter.
      if (p.in === 'path' && (v === '' || (typeof v === 'string' && v.includes('/')))) continue;
      const params = new Map(base);
      params.set(p.name, v);
      cases.push({ op, what: `${p.in} ${p.name}=${JSON.stringify(v).slice(0, 40)}`, params, body: baseBodyValue });
    }
  }
  return cases;
}

/** What the document says of a request: the problems ajv finds (none: accepted). */
function documentVerdict(c: Case): string[] {
  const problems: string[] = [];
  const method = c.op.method.toLowerCase();
  c.op.parameters.forEach((p, i) => {
    const v = c.params.get(p.name);
    if (v === undefined) {
      if (p.required) problems.push(`${p.name} missing`);
      return;
    }
    const validate = doc.validator(['paths', c.op.path, method, 'parameters', String(i), 'schema']);
    if (!validate(v)) problems.push(`${p.name}: ${doc.ajv.errorsText(validate.errors)}`);
  });
  if (c.op.body && c.body !== undefined) {
    const validate = doc.validator([
      'paths',
      c.op.path,
      method,
      'requestBody',
      'content',
      'application/json',
      'schema',
    ]);
    if (!validate(c.body)) problems.push(`body: ${doc.ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

function wire(v: Json): string[] {
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

async function send(c: Case): Promise<Response> {
  const byName = new Map(c.op.parameters.map((p) => [p.name, p]));
  const url = fillPath(c.op.path, (name) => String(c.params.get(name) ?? ''));
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const [name, v] of c.params) {
    const p = byName.get(name);
    if (p?.in === 'query') for (const s of wire(v)) query.append(name, s);
    if (p?.in === 'header') headers[name] = wire(v).join(',');
  }
  const admits = (kind: string) => c.op.security.length === 0 || c.op.security.some((s) => kind in s);
  // Logging out ends the session it is sent with: that operation gets a session of its own.
  if (c.op.operationId === 'logout') headers['x-session-token'] = (await h.signup()).token;
  else if (admits('session')) headers['x-session-token'] = session;
  else if (admits('api_key')) headers['x-api-key'] = apiKey;
  const init: RequestInit = { method: c.op.method, headers };
  if (c.op.body && c.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(c.body);
  }
  const qs = query.toString();
  // A fresh client address per request, so the per-address limits of the sign-in routes stay out of it.
  const n = ++ipCounter;
  return h.request(qs ? `${url}?${qs}` : url, init, `198.18.${(n >> 8) & 255}.${n & 255}`);
}

describe('the OpenAPI document and the server agree on valid requests', () => {
  it('answers every operation’s examples and edge values as the document says', async () => {
    const failures: string[] = [];
    const operations = new Set<string>();
    let accepted = 0;
    let refused = 0;
    for (const op of doc.operations) {
      for (const c of casesOf(op)) {
        const problems = documentVerdict(c);
        const res = await send(c);
        const text = await bodyText(res);
        let body: { code?: unknown; message?: unknown } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          // Not JSON: reported below through the status.
        }
        const label = `${op.method} ${op.path} ${c.what}`;
        operations.add(`${op.method} ${op.path}`);
        // A venue that cannot be reached (503) is an answer; a 500 never is.
        if (res.status === 500) failures.push(`${label}: 500 ${text.slice(0, 160)}`);
        if (problems.length === 0) {
          accepted++;
          if (res.status === 400 && SHAPE_REFUSAL.test(String(body.message))) {
            failures.push(`${label}: the document accepts it, the server answered 400 ${String(body.message)}`);
          }
        } else {
          refused++;
          const errorResponse = doc.validator(['components', 'schemas', 'ErrorResponse']);
          if (res.status !== 400 || !errorResponse(body)) {
            failures.push(
              `${label}: the document refuses it (${problems.join('; ').slice(0, 160)}), the server answered ${res.status} ${text.slice(0, 160)}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(operations.size).toBe(doc.operations.length);
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  }, 300_000);
});
