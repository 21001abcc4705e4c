import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../test/support/harness.js';
import { fillPath } from '../test/support/operations.js';
import { createApp, OPENAPI_PATH } from './app.js';
import { grantTier } from './auth/tiers.js';
import { EXAMPLE_NEWS_FEED, NewsFeeds } from './market/news/news.js';
import { DEFAULT_CONFIG } from './platform/deps.js';

/**
 * Contract test: every GET operation of the served OpenAPI document that a session or an API
 * key of the harness can call is called with its required parameters (from the document's
 * examples, enums and defaults), and the real response is validated against the document: a
 * 2xx body against the operation's schema, a 4xx against `ErrorResponse`, the status listed.
 */

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  minimum?: number;
  anyOf?: JsonSchema[];
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

const DOC_ID = 'https://marketlens.local/openapi.json';
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A value for a parameter: its example, else its schema's example, enum, default or minimum. */
function paramValue(p: Parameter): string | undefined {
  const s = p.schema ?? {};
  const candidates = [p.example, s.example, s.examples?.[0], s.enum?.[0], s.default, s.minimum];
  for (const v of candidates) if (v !== undefined) return String(v);
  if (s.type === 'boolean') return 'true';
  return undefined;
}

let h: Harness;
let doc: Document;
let ajv: Ajv2020;
let credentials: { session: Record<string, string>; api_key: Record<string, string> };

beforeAll(async () => {
  h = harness();
  const user = await h.signup();
  await grantTier(h.storage, user.userId, 'pro', 'admin', 30, h.clock.now);
  credentials = {
    session: { 'x-session-token': user.token },
    api_key: { 'x-api-key': await h.apiKey(user.token) },
  };
  doc = (await (await h.request(OPENAPI_PATH)).json()) as Document;
  // The document is one schema resource; operations' schemas are compiled by JSON pointer into
  // it, so `#/components/schemas/...` references resolve as they do for a client.
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
});

const validatorCache = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  let v = validatorCache.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#/${ref}` });
    validatorCache.set(ref, v);
  }
  return v;
}

interface Call {
  method: string;
  path: string;
  url: string;
  credential: keyof typeof credentials;
}

function callsOf(document: Document): { calls: Call[]; skipped: string[] } {
  const calls: Call[] = [];
  const skipped: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const op = item.get;
    if (!op) continue;
    const security = op.security ?? [];
    const credential = security.some((s) => 'session' in s)
      ? 'session'
      : security.some((s) => 'api_key' in s)
        ? 'api_key'
        : undefined;
    if (!credential) {
      skipped.push(`GET ${path}: no session or API key`);
      continue;
    }
    const params = op.parameters ?? [];
    const missing = params.filter((p) => p.required && paramValue(p) === undefined).map((p) => p.name);
    if (missing.length > 0) {
      skipped.push(`GET ${path}: no value for ${missing.join(', ')}`);
      continue;
    }
    const byName = new Map(params.map((p) => [p.name, p]));
    const filled = fillPath(path, (name) => {
      const p = byName.get(name);
      return (p && paramValue(p)) ?? name;
    });
    const query = new URLSearchParams();
    for (const p of params) {
      const v = paramValue(p);
      if (p.in === 'query' && p.required && v !== undefined) query.set(p.name, v);
    }
    const qs = query.toString();
    calls.push({ method: 'get', path, url: qs ? `${filled}?${qs}` : filled, credential });
  }
  return { calls, skipped };
}

describe('responses against the OpenAPI document', () => {
  it('every callable GET operation answers what its document says', async () => {
    const { calls } = callsOf(doc);
    expect(calls.length).toBeGreaterThan(10);
    const failures: string[] = [];
    let ok2xx = 0;
    for (const call of calls) {
      for (const cred of new Set([call.credential, 'api_key' as const])) {
        const res = await h.request(call.url, { headers: credentials[cred] });
        const status = String(res.status);
        const op = doc.paths[call.path][call.method];
        const type = res.headers.get('content-type') ?? '';
        if (!(status in op.responses)) {
          failures.push(`${call.url} (${cred}): status ${status} is not documented`);
          continue;
        }
        if (!type.includes('application/json')) continue;
        const body: unknown = await res.json();
        let ref: string;
        if (res.status >= 200 && res.status < 300) {
          ref = pointer('paths', call.path, call.method, 'responses', status, 'content', 'application/json', 'schema');
          ok2xx++;
        } else if (res.status >= 400 && res.status < 500) {
          ref = pointer('components', 'schemas', 'ErrorResponse');
        } else {
          failures.push(`${call.url} (${cred}): unexpected ${status} ${JSON.stringify(body).slice(0, 200)}`);
          continue;
        }
        const validate = validator(ref);
        if (!validate(body)) {
          failures.push(`${call.url} (${cred}) ${status}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(ok2xx).toBeGreaterThan(10);
  });

  it('checks 4xx answers against ErrorResponse too (unknown ids, bad parameters)', async () => {
    const cases = [
      ['/v2/analysis/no-such-asset', 400],
      ['/v2/analysis/bitcoin?timeframe=h2', 400],
      ['/v1/news/?limit=0', 400],
      ['/v1/exchanges/nope', 404],
    ] as const;
    const validate = validator(pointer('components', 'schemas', 'ErrorResponse'));
    for (const [url, status] of cases) {
      const res = await h.request(url, { headers: credentials.session });
      expect([url, res.status]).toEqual([url, status]);
      expect(validate(await res.json()), ajv.errorsText(validate.errors)).toBe(true);
    }
  });

  it('validates real news items (the example feed, read from disk)', async () => {
    const news = new NewsFeeds({ feeds: [EXAMPLE_NEWS_FEED], refreshMs: 60_000, timeoutMs: 1_000 });
    await news.refresh();
    const now = () => h.clock.now;
    const app = createApp({ storage: h.storage, config: DEFAULT_CONFIG, now, market: h.market, news });
    const res = await app.request('/v1/news/?limit=100', { headers: credentials.session });
    const body = (await res.json()) as { data: unknown[] };
    expect(body.data.length).toBe(3);
    const v = validator(
      pointer('paths', '/v1/news/', 'get', 'responses', '200', 'content', 'application/json', 'schema'),
    );
    expect(v(body), ajv.errorsText(v.errors)).toBe(true);
  });

  it('would notice a response that breaks its schema', () => {
    const v = validator(
      pointer('paths', '/v1/news/', 'get', 'responses', '200', 'content', 'application/json', 'schema'),
    );
    expect(v({ code: 0, success: true, data: [], message: null })).toBe(true);
    expect(v({ code: 0, success: true, data: [{ id: 'x' }], message: null })).toBe(false);
    expect(
      v({
        code: 0,
        success: true,
        data: [{ id: 'x', source: 's', title: 't', description: '', url: 'u', date: 'yesterday' }],
      }),
    ).toBe(false);
  });
});

describe('rules the server enforces, as the document states them', () => {
  type Schema = Record<string, unknown> & { anyOf?: Schema[]; properties?: Record<string, Schema> };
  const param = (path: string, name: string): Schema => {
    const op = doc.paths[path].get;
    const p = (op.parameters ?? []).find((x) => x.name === name);
    return (p?.schema ?? {}) as Schema;
  };
  const component = (name: string): Schema => (doc.components as { schemas: Record<string, Schema> }).schemas[name];

  it('bounds a position analysis `limit` and an order list `offset`', () => {
    expect(param('/v2/positions/{position_id}/analysis', 'limit').anyOf).toContainEqual({
      type: 'integer',
      minimum: 50,
      maximum: 5000,
    });
    expect(param('/v1/orders', 'offset').anyOf).toContainEqual(
      expect.objectContaining({ type: 'integer', minimum: 0 }),
    );
    expect(param('/v2/insights/fear_greed', 'min_volume')).toMatchObject({ minimum: 0 });
  });

  it('gives each signal control its format (`rsi_band` as `min,max` within 0..100)', () => {
    const band = new RegExp(String(param('/v2/assets/signals', 'rsi_band').pattern));
    for (const ok of ['30,70', '0,100', ' 12.5 , 99 ']) expect([ok, band.test(ok)]).toEqual([ok, true]);
    for (const bad of ['30', '30,70,90', '-1,50', '30,101', 'a,b']) expect([bad, band.test(bad)]).toEqual([bad, false]);
    expect(param('/v2/assets/signals', 'direction').enum).toEqual(['buy', 'hold', 'sell']);
  });

  it("holds an alert's target to its kind's range", () => {
    const byKind = new Map(
      (component('NotificationPayload').anyOf ?? []).map((b) => [b.title, b.properties?.target] as const),
    );
    expect(byKind.get('rsi')).toEqual({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 100 });
    expect(byKind.get('smart_zone')).toEqual({ type: 'number', minimum: 0, maximum: 50 });
    expect(byKind.get('percent_change')?.anyOf).toHaveLength(2);
    expect(byKind.get('price')).toEqual({ type: 'number', exclusiveMinimum: 0 });
  });

  it('refuses extra keys where the server does, and names the asset of the legacy favorite', () => {
    const patch = (doc.paths['/v2/positions/{position_id}'] as Record<string, { requestBody?: unknown }>).patch;
    expect(patch.requestBody).toMatchObject({
      content: { 'application/json': { schema: { additionalProperties: false } } },
    });
    expect(component('LegacyFavoriteRequest').anyOf?.map((b) => b.required)).toEqual([['asset_id'], ['coin_id']]);
  });
});
