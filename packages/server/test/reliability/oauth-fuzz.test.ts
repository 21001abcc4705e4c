import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.js';
import { s256 } from '../../src/auth/oauth/service.js';
import { PROTECTED_RESOURCE_PATH } from '../../src/mcp/route.js';
import { DEFAULT_CONFIG } from '../../src/platform/deps.js';
import { RELEASE_FEED_PATH } from '../../src/platform/feed/route.js';
import type { Harness } from '../support/harness.js';
import { headerSafe, junkText } from './fuzz-request.js';
import {
  type Answer,
  AUTHORIZE_ERRORS,
  applyPlan,
  brokenJsonArb,
  type DrawnParams,
  type Encoding,
  encodeBody,
  encodingArb,
  envelopeCode,
  gateRefusal,
  jsonOf,
  leakedInternals,
  noiseArb,
  normalOrigin,
  ORIGINS,
  oauthErrorOf,
  oauthJsonErrorProblems,
  pageErrorOf,
  planArb,
  READABLE,
  REGISTER_ERRORS,
  REVOKE_ERRORS,
  rawQueryArb,
  redirectsToRegistered,
  safeRedirectUri,
  sentText,
  TOKEN_ERRORS,
  type Wire,
} from './oauth-fuzz-support.js';
import { offlineHarness } from './offline.js';

/**
 * Property-based fuzz of the routes the OpenAPI document does not describe, so fuzz.test.ts does
 * not reach them: the OAuth 2.1 authorization server (metadata, registration, the authorize
 * page and its form, the token endpoint with both grants, revocation), /docs and its assets, and
 * the release feed. Besides single random requests, sequences start valid (register a client,
 * approve, exchange the code) and fuzz a later step, so draws get past the first check.
 *
 * Every answer: never a 5xx, never a stack trace or internal error text; OAuth failures are the
 * RFC 6749 / 7591 JSON errors with a registered code (400/401), the authorize step's HTML error
 * page, or a redirect with error parameters, and only ever to a URI the client registered; the
 * platform's gates (version gate, key in query, rate limit) may answer with their envelope.
 * A success needs every parameter it depends on intact; a request with nothing changed succeeds.
 *
 * OAUTH_FUZZ_RUNS (runs per property, default 250), OAUTH_FUZZ_STATS=1 (print the outcomes) and OAUTH_FUZZ_SEED (default 6749) make it
 * longer or different: `OAUTH_FUZZ_RUNS=500 npx vitest run packages/server/src/reliability/oauth-fuzz.test.ts`.
 */

const RUNS = Number(process.env.OAUTH_FUZZ_RUNS ?? 250);
const SEED = Number(process.env.OAUTH_FUZZ_SEED ?? 6749);
const PASSWORD = 'password-123';

let h: Harness;
let user: { token: string; email: string };

/**
 * Apps over the same storage serving each origin that is not loopback as their public URL: without
 * one configured, the server refuses a Host that does not name this machine.
 */
const named = new Map<string, App>();

beforeAll(async () => {
  // One user approves every fuzzed client: the per-account cap (tested in storage/sql/oauth.test.ts)
  // would otherwise drop the oldest ones while the fuzz still uses them.
  const perAccount = { oauthClientsPerAccount: 1_000_000 };
  h = offlineHarness(perAccount);
  for (const origin of ORIGINS.map(normalOrigin)) {
    if (['localhost', '127.0.0.1', '[::1]'].includes(new URL(origin).hostname)) continue;
    const config = {
      ...DEFAULT_CONFIG,
      ...perAccount,
      rateLimit: { limit: 1e12, windowMs: 60_000 },
      publicUrl: origin,
    };
    named.set(
      origin,
      createApp({ storage: h.storage, config, now: () => h.clock.now, market: h.market }, { logError: () => {} }),
    );
  }
  const email = 'oauth-fuzz@example.com';
  user = { token: (await h.signup(email)).token, email };
});

/** The app serving `url`'s origin. */
function appOf(url: string): App | undefined {
  try {
    return named.get(new URL(url).origin);
  } catch {
    return undefined;
  }
}

/**
 * Runs, seed, and a report of the failing request only: the drawn values hold strings of up to
 * 70 kB, and the request and answer in the error say more than the raw draw.
 */
const options = <T>(offset: number): fc.Parameters<T> => ({
  numRuns: RUNS,
  seed: SEED + offset,
  endOnFailure: true,
  reporter: (out: fc.RunDetails<T>) => {
    if (!out.failed) return;
    const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
    throw new Error(
      `failed after ${out.numRuns} runs (OAUTH_FUZZ_SEED=${SEED} offset ${offset}, path ${out.counterexamplePath}):\n${cause}`,
    );
  },
});

/**
 * The address each request comes from: a new one every 10 requests, so the per-address cap on
 * unapproved clients (tested in `storage/sql/oauth.test.ts`) never decides a fuzzed registration.
 */
let sent = 0;
const nextAddress = () => `203.0.113.${(Math.floor(sent++ / 10) % 250) + 1}`;

async function send(w: Wire): Promise<Answer> {
  const bodyless = w.method === 'GET' || w.method === 'HEAD';
  const init: RequestInit = {
    method: w.method,
    headers: w.headers,
    ...(w.body !== undefined && !bodyless ? { body: w.body } : {}),
    redirect: 'manual',
  };
  const app = appOf(w.url);
  const ip = nextAddress();
  const res = await (app
    ? app.request(w.url, init, { incoming: { socket: { remoteAddress: ip } } })
    : h.request(w.url, init, ip));
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, text };
}

/** Fails the property with the request and the answer, when there are problems. */
function judge(w: Wire, a: Answer, problems: string[], checkLeak = true): void {
  if (a.status >= 500) problems.unshift(`status ${a.status}`);
  const leak = checkLeak ? leakedInternals(a.text, sentText(w)) : null;
  if (leak) problems.unshift(`internal text in the body: ${JSON.stringify(leak)}`);
  if (problems.length === 0) return;
  throw new Error(
    `${w.method} ${w.url.slice(0, 300)} headers=${JSON.stringify(w.headers).slice(0, 300)} body=${JSON.stringify((w.body ?? '').slice(0, 300))}\n-> ${a.status} ${a.type} location=${a.headers.get('location')} ${a.text.slice(0, 300)}\n${problems.join('\n')}`,
  );
}

/** Outcomes per property, so each can show that its draws got past the first check. */
const seen = new Map<string, Map<string, number>>();

/** A short name of an answer: `gate`, `302:code`, `302:<error>`, `<status>:<error>` or the status. */
function outcomeOf(a: Answer): string {
  if (gateRefusal(a)) return 'gate';
  if (a.status === 302) {
    const q = new URL(a.headers.get('location') ?? 'x:/', 'x:/').searchParams;
    return q.has('code') ? '302:code' : `302:${q.get('error')}`;
  }
  const error = oauthErrorOf(a) ?? (a.type.startsWith('text/html') ? pageErrorOf(a) : null);
  return error ? `${a.status}:${error}` : String(a.status);
}

function saw(property: string, a: Answer): void {
  const m = seen.get(property) ?? new Map<string, number>();
  const o = outcomeOf(a);
  m.set(o, (m.get(o) ?? 0) + 1);
  seen.set(property, m);
}

/** Every outcome of `wanted` was seen in `property` (the draws reach past the first check). */
function expectReached(property: string, wanted: string[]): void {
  const m = seen.get(property) ?? new Map<string, number>();
  expect([...m.keys()], JSON.stringify(Object.fromEntries(m))).toEqual(expect.arrayContaining(wanted));
}

afterAll(() => {
  // OAUTH_FUZZ_STATS=1 prints how the answers were spread, per property.
  if (process.env.OAUTH_FUZZ_STATS) {
    for (const [property, m] of seen) console.log(property, JSON.stringify(Object.fromEntries(m)));
  }
});

// ---- clients and flows ----

type AuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

interface Client {
  id: string;
  secret: string | null;
  redirectUris: string[];
}

/** Redirect URIs the registration accepts: https, loopback http (any port later), native app schemes, a query, unicode. */
const GOOD_REDIRECTS = [
  'https://app.example/cb',
  'http://127.0.0.1:8765/callback',
  'http://localhost/cb',
  'http://[::1]:9/cb',
  'com.example.app:/oauth',
  'myapp://cb/x',
  'https://app.example/cb?tenant=1',
  'https://app.example/ü',
];

const clientArb = fc.record({
  origin: fc.constantFrom(...ORIGINS),
  uris: fc.subarray(GOOD_REDIRECTS, { minLength: 1, maxLength: 2 }),
  method: fc.constantFrom<AuthMethod>('none', 'client_secret_post', 'client_secret_basic'),
  uriIndex: fc.nat(),
  verifier: fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/),
  state: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 16 }), fc.constant('"><script>alert(1)</script>')),
});
type ClientDraw = typeof clientArb extends fc.Arbitrary<infer T> ? T : never;

async function register(origin: string, uris: string[], method: AuthMethod): Promise<Client> {
  const w: Wire = {
    method: 'POST',
    url: `${origin}/oauth/register`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: uris, token_endpoint_auth_method: method, client_name: 'oauth fuzz' }),
  };
  const a = await send(w);
  const body = jsonOf(a.text);
  judge(w, a, a.status === 201 && typeof body?.client_id === 'string' ? [] : ['a valid registration failed']);
  return {
    id: String(body?.client_id),
    secret: typeof body?.client_secret === 'string' ? body.client_secret : null,
    redirectUris: uris,
  };
}

const AUTHORIZE_KEYS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;

/** The valid authorization request of a drawn client. */
function authorizeParams(c: Client, d: ClientDraw): Record<string, string> {
  return {
    response_type: 'code',
    client_id: c.id,
    redirect_uri: c.redirectUris[d.uriIndex % c.redirectUris.length] ?? '',
    code_challenge: s256(d.verifier),
    code_challenge_method: 'S256',
    state: d.state,
    resource: `${normalOrigin(d.origin)}/mcp`,
    scope: 'mcp',
  };
}

/** Registers, approves with the fuzz user's session, and returns the code (all steps valid). */
async function codeFor(d: ClientDraw): Promise<{ client: Client; code: string; params: Record<string, string> }> {
  const client = await register(d.origin, d.uris, d.method);
  const params = authorizeParams(client, d);
  const w: Wire = {
    method: 'POST',
    url: `${d.origin}/oauth/authorize`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-session-token': user.token },
    body: new URLSearchParams({ ...params, action: 'approve' }).toString(),
  };
  const a = await send(w);
  const code = new URL(a.headers.get('location') ?? 'x:/').searchParams.get('code');
  judge(w, a, a.status === 302 && code ? [] : ['a valid approval did not redirect with a code']);
  return { client, code: code ?? '', params };
}

type AuthMode = 'params' | 'basic' | 'basic-wrong' | 'basic-junk' | 'basic-escape' | 'bearer';
const authModeArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<AuthMode>('params', 'basic') },
  { weight: 1, arbitrary: fc.constantFrom<AuthMode>('basic-wrong', 'basic-junk', 'basic-escape', 'bearer') },
);

interface ClientAuth {
  /** Parameters of the body (mutated with the rest). */
  params: Record<string, string>;
  headers: Record<string, string>;
  /** Whether this authenticates the client (given the parameters arrive intact). */
  valid: boolean;
  /** Whether the credential is in a header (so it does not depend on the body). */
  inHeader: boolean;
}

const basic = (scheme: string, id: string, secret: string) =>
  `${scheme} ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function clientAuth(c: Client, mode: AuthMode, junk: string, scheme: string): ClientAuth {
  const own: Record<string, string> =
    c.secret === null ? { client_id: c.id } : { client_id: c.id, client_secret: c.secret };
  switch (mode) {
    case 'params':
      return { params: own, headers: {}, valid: true, inHeader: false };
    case 'basic':
      return {
        params: {},
        headers: { authorization: basic(scheme, c.id, c.secret ?? '') },
        valid: true,
        inHeader: true,
      };
    case 'basic-wrong':
      // A public client has no secret to check: the wrong one is ignored.
      return {
        params: {},
        headers: { authorization: basic('Basic', c.id, 'wrong-secret') },
        valid: c.secret === null,
        inHeader: true,
      };
    case 'basic-junk':
      return { params: {}, headers: { authorization: `Basic ${headerSafe(junk)}` }, valid: false, inHeader: true };
    case 'basic-escape': {
      const raw = `%E0%A4%A:${c.secret ?? ''}`;
      return {
        params: {},
        headers: { authorization: `Basic ${Buffer.from(raw).toString('base64')}` },
        valid: false,
        inHeader: true,
      };
    }
    case 'bearer':
      return {
        params: { client_id: c.id },
        headers: { authorization: 'Bearer mla_not-a-client-credential' },
        valid: c.secret === null,
        inHeader: false,
      };
  }
}

const bodyDrawArb = fc.record({
  encoding: encodingArb,
  broken: brokenJsonArb,
  noise: noiseArb,
  junk: junkText,
  scheme: fc.constantFrom('Basic', 'basic', 'BASIC'),
});

/** Whether a change to any of `keys` rules out a success (`optional`: dropping them is fine). */
function broken(p: DrawnParams, keys: string[], optional: string[] = []): boolean {
  return (
    keys.some((k) => p.changes.get(k) === 'altered' || p.changes.get(k) === 'dropped') ||
    optional.some((k) => p.changes.get(k) === 'altered')
  );
}

function tokenWire(origin: string, path: string, p: DrawnParams, auth: ClientAuth, enc: Encoding, broken_: string) {
  const body = encodeBody(p.pairs, enc, broken_);
  return {
    method: 'POST',
    url: `${origin}${path}`,
    headers: { ...body.headers, ...auth.headers },
    ...(body.body !== undefined ? { body: body.body } : {}),
  } satisfies Wire;
}

/**
 * The checks of a token or revocation answer: the RFC error shape, a 401 only for a client that
 * did not authenticate, a success only when `possible`, and one when `expected`.
 */
function tokenProblems(
  a: Answer,
  o: {
    codes: ReadonlySet<string>;
    possible: boolean;
    expected: boolean;
    auth: ClientAuth;
    p: DrawnParams;
    enc: Encoding;
  },
): string[] {
  const problems: string[] = [];
  if (gateRefusal(a)) return o.expected ? [`a valid request was refused by the gate (${gateRefusal(a)})`] : [];
  if (a.status === 200) {
    if (!o.possible) problems.push('succeeded although a parameter it needs was broken');
    if (a.headers.get('cache-control') !== 'no-store') problems.push('success without cache-control: no-store');
  } else {
    problems.push(...oauthJsonErrorProblems(a, o.codes));
    if (o.expected) problems.push('a request with nothing changed failed');
    const clientIntact =
      o.auth.inHeader || (READABLE.has(o.enc) && !o.p.changes.has('client_id') && !o.p.changes.has('client_secret'));
    if (a.status === 401 && o.auth.valid && clientIntact) problems.push('an authenticated client was refused with 401');
  }
  return problems;
}

// ---- properties ----

describe('OAuth fuzz: registration (RFC 7591)', () => {
  const redirectUriArb = fc.oneof(
    fc.constantFrom(...GOOD_REDIRECTS),
    fc.constantFrom(
      'http://evil.example/cb',
      'javascript:alert(1)',
      'data:text/html,x',
      'https://app.example/cb#frag',
      'not a url',
      '',
      '//app.example/cb',
      'file:///etc/passwd',
      'HTTP://127.0.0.1/cb',
      'http://127.0.0.1.evil.example/cb',
      'JavaScript:alert(1)',
      'myapp:ü',
    ),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    junkText,
  );
  const metadataArb = fc.record(
    {
      redirect_uris: fc.oneof(
        { weight: 4, arbitrary: fc.array(redirectUriArb, { maxLength: 3 }) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      ),
      token_endpoint_auth_method: fc.constantFrom(
        'none',
        'client_secret_post',
        'client_secret_basic',
        'private_key_jwt',
        '',
        'NONE',
      ),
      grant_types: fc.subarray(['authorization_code', 'refresh_token', 'client_credentials', 'implicit', 'password']),
      response_types: fc.subarray(['code', 'token', 'id_token']),
      client_name: junkText,
      client_uri: fc.oneof(fc.webUrl(), junkText),
      logo_uri: fc.oneof(fc.webUrl(), fc.constant('javascript:alert(1)')),
      scope: fc.constantFrom('mcp', 'openid offline_access', ''),
      contacts: fc.array(fc.emailAddress(), { maxLength: 2 }),
      software_statement: junkText,
      jwks: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  const goodArb = fc.record({
    redirect_uris: fc.subarray(GOOD_REDIRECTS, { minLength: 1 }),
    token_endpoint_auth_method: fc.constantFrom('none', 'client_secret_post', 'client_secret_basic'),
    client_name: fc.string({ unit: 'grapheme', maxLength: 30 }),
  });
  const drawArb = fc.record({
    origin: fc.constantFrom(...ORIGINS),
    kind: fc.constantFrom('good', 'metadata', 'metadata', 'metadata', 'non-object', 'broken', 'form', 'text-plain'),
    good: goodArb,
    metadata: metadataArb,
    extra: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    other: fc.jsonValue({ maxDepth: 2 }),
    broken: brokenJsonArb,
    noise: noiseArb,
  });

  it('answers every registration with client information or an RFC 7591 error', async () => {
    await fc.assert(
      fc.asyncProperty(drawArb, async (d) => {
        const meta = { ...d.extra, ...d.metadata };
        const [type, body] = ((): [string, string] => {
          switch (d.kind) {
            case 'good':
              return ['application/json', JSON.stringify(d.good)];
            case 'metadata':
              return ['application/json', JSON.stringify(meta)];
            case 'non-object':
              return ['application/json', JSON.stringify(d.other) ?? ''];
            case 'broken':
              return ['application/json', d.broken];
            case 'form':
              return [
                'application/x-www-form-urlencoded',
                new URLSearchParams({ redirect_uris: GOOD_REDIRECTS[0] ?? '' }).toString(),
              ];
            default:
              return ['text/plain', JSON.stringify(meta)];
          }
        })();
        const w: Wire = {
          method: 'POST',
          url: `${d.origin}/oauth/register`,
          headers: { 'content-type': type, ...d.noise },
          body,
        };
        const a = await send(w);
        saw('register', a);
        const problems: string[] = [];
        const expected = d.kind === 'good' && Object.keys(d.noise).length === 0;
        if (gateRefusal(a)) {
          if (expected) problems.push('a valid registration was refused by the gate');
        } else if (a.status === 201) {
          const info = jsonOf(a.text);
          const uris = info?.redirect_uris;
          if (typeof info?.client_id !== 'string' || !info.client_id.startsWith('mlc_')) problems.push('no client_id');
          if (!Array.isArray(uris) || uris.length === 0) problems.push('registered without redirect URIs');
          else if (!uris.every((u) => typeof u === 'string' && safeRedirectUri(u)))
            problems.push('registered an unsafe redirect URI');
          const method = info?.token_endpoint_auth_method;
          if (!['none', 'client_secret_post', 'client_secret_basic'].includes(String(method)))
            problems.push(`auth method ${String(method)}`);
          if ((method === 'none') === (typeof info?.client_secret === 'string'))
            problems.push('client_secret does not match the auth method');
          const grants = info?.grant_types;
          if (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
            problems.push('unsupported grant registered');
          if (a.headers.get('cache-control') !== 'no-store') problems.push('client information without no-store');
          // The registered client is usable: its authorization request gets the consent page.
          if (problems.length === 0 && Array.isArray(uris) && typeof info?.client_id === 'string') {
            const q = new URLSearchParams({
              response_type: 'code',
              client_id: info.client_id,
              redirect_uri: String(uris[0]),
              code_challenge: s256('v'.repeat(43)),
              code_challenge_method: 'S256',
              resource: `${normalOrigin(d.origin)}/mcp`,
            });
            const follow: Wire = { method: 'GET', url: `${d.origin}/oauth/authorize?${q}`, headers: {} };
            const page = await send(follow);
            judge(
              follow,
              page,
              page.status === 200 && page.type.startsWith('text/html') && !/<script/i.test(page.text)
                ? []
                : ['the registered client cannot authorize, or its page shows a script (unescaped client_name)'],
            );
          }
        } else {
          problems.push(...oauthJsonErrorProblems(a, REGISTER_ERRORS));
          if (expected) problems.push('a valid registration failed');
        }
        judge(w, a, problems);
      }),
      options(1),
    );
    expectReached('register', ['201', '400:invalid_redirect_uri', '400:invalid_client_metadata']);
  });
});

describe('OAuth fuzz: the authorization endpoint', () => {
  type SessionMode = 'header' | 'cookie' | 'none' | 'junk-header' | 'junk-cookie' | 'login' | 'login-wrong';
  type OriginMode = 'absent' | 'same' | 'evil' | 'null' | 'upper';
  const drawArb = fc.record({
    c: clientArb,
    post: fc.boolean(),
    action: fc.constantFrom('approve', 'approve', 'approve', 'deny'),
    session: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom<SessionMode>('header', 'cookie') },
      { weight: 2, arbitrary: fc.constantFrom<SessionMode>('none', 'junk-header', 'junk-cookie') },
      { weight: 1, arbitrary: fc.constantFrom<SessionMode>('login', 'login-wrong') },
    ),
    originHeader: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<OriginMode>('absent', 'same') },
      { weight: 1, arbitrary: fc.constantFrom<OriginMode>('evil', 'null', 'upper') },
    ),
    body: bodyDrawArb,
    rawTail: fc.oneof(
      { weight: 6, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.constantFrom('&%ZZ', '&=&', '&state', '&api_key=1', '&client_id') },
    ),
    plan: planArb([...AUTHORIZE_KEYS, 'action']),
  });

  it('answers with the consent page, its error page, or a redirect to a registered URI only', async () => {
    await fc.assert(
      fc.asyncProperty(drawArb, async (d) => {
        const client = await register(d.c.origin, d.c.uris, d.c.method);
        const valid = authorizeParams(client, d.c);
        if (d.post) valid.action = d.action;
        const p = applyPlan(d.plan, valid);
        const origin = normalOrigin(d.c.origin);
        const headers: Record<string, string> = { ...d.body.noise };
        const pairs = [...p.pairs];
        if (d.post) {
          if (d.session === 'header') headers['x-session-token'] = user.token;
          if (d.session === 'cookie') headers.cookie = `x-session-token=${user.token}`;
          if (d.session === 'junk-header') headers['x-session-token'] = headerSafe(d.body.junk);
          if (d.session === 'junk-cookie') headers.cookie = 'x-session-token=%E0%A4%A; other="unterminated';
          if (d.session === 'login' || d.session === 'login-wrong') {
            pairs.push(['email', user.email], ['password', d.session === 'login' ? PASSWORD : 'wrong-password-1']);
          }
          const originValues: Record<OriginMode, string | null> = {
            absent: null,
            same: origin,
            evil: 'https://evil.example',
            null: 'null',
            upper: origin.toUpperCase(),
          };
          const o = originValues[d.originHeader];
          if (o !== null) headers.origin = o;
        }
        let w: Wire;
        if (d.post) {
          const body = encodeBody(pairs, d.body.encoding, d.body.broken);
          w = {
            method: 'POST',
            url: `${d.c.origin}/oauth/authorize`,
            headers: { ...headers, ...body.headers },
            ...(body.body !== undefined ? { body: body.body } : {}),
          };
        } else {
          w = {
            method: 'GET',
            url: `${d.c.origin}/oauth/authorize?${new URLSearchParams(pairs)}${d.rawTail}`,
            headers,
          };
        }
        const a = await send(w);
        saw('authorize', a);

        const readable = !d.post || READABLE.has(d.body.encoding);
        const originOk =
          !d.post || d.originHeader === 'absent' || d.originHeader === 'same' || headers.origin === origin;
        const signedIn = d.post && (d.session === 'header' || d.session === 'cookie' || d.session === 'login');
        // An altered challenge may still be a well-formed one (e.g. upper-cased); a missing one never is.
        const requestBroken =
          broken(p, ['client_id', 'response_type', 'code_challenge_method', 'resource']) ||
          p.changes.get('code_challenge') === 'dropped';
        const quiet = Object.keys(d.body.noise).length === 0 && d.rawTail === '';
        const intact = p.changes.size === 0 && !p.extras && readable && originOk && quiet;
        const problems: string[] = [];
        const htmlHeaders = () => {
          if (!a.type.startsWith('text/html')) problems.push(`content type ${a.type}`);
          if (a.headers.get('x-frame-options') !== 'DENY') problems.push('page without x-frame-options: DENY');
          if (a.headers.get('cache-control') !== 'no-store') problems.push('page without no-store');
          // The pages have no scripts of their own: one in the page is reflected input left unescaped.
          if (/<script/i.test(a.text)) problems.push('a script in the page (unescaped input)');
        };
        if (gateRefusal(a)) {
          if (intact) problems.push('a valid request was refused by the gate');
        } else if (a.status === 200) {
          htmlHeaders();
          if (d.post) problems.push('a decision answered 200');
          if (requestBroken) problems.push('consent page for a broken request');
          if (!a.text.includes('<form method="post" action="/oauth/authorize">')) problems.push('no consent form');
        } else if (a.status === 302) {
          const location = a.headers.get('location') ?? '';
          if (!redirectsToRegistered(location, client.redirectUris)) problems.push('redirect to an unregistered URI');
          const loc = new URL(location, 'x:/');
          const q = loc.searchParams;
          if (q.get('iss') !== origin) problems.push(`iss ${q.get('iss')} is not ${origin}`);
          const stateIntact = !p.changes.has('state') && d.body.encoding !== 'multipart' && d.rawTail === '';
          if (stateIntact && q.get('state') !== d.c.state) problems.push('state not returned as sent');
          if (q.has('code')) {
            if (!d.post || !signedIn || !originOk || !readable) problems.push('a code without a signed-in approval');
            if (requestBroken) problems.push('a code for a broken request');
            if (
              p.changes.get('action') === 'altered' ||
              p.changes.get('action') === 'dropped' ||
              d.action !== 'approve'
            ) {
              problems.push('a code without approve');
            }
          } else {
            const error = q.get('error');
            if (!error || !AUTHORIZE_ERRORS.has(error)) problems.push(`redirect error ${error}`);
            if (!q.get('error_description')) problems.push('redirect without error_description');
            if (error === 'access_denied' && !d.post) problems.push('access_denied without a decision');
            if (intact && !(d.post && d.action === 'deny'))
              problems.push('a valid request was redirected with an error');
          }
        } else if (a.status === 400) {
          htmlHeaders();
          const error = pageErrorOf(a);
          if (error !== 'invalid_request' && error !== 'invalid_client') problems.push(`error page ${error}`);
          if (intact) problems.push('a valid request got the error page');
        } else if (a.status === 401) {
          htmlHeaders();
          if (!d.post || (signedIn && d.session !== 'login')) problems.push('401 for a signed-in decision');
          if (!/Sign in to approve\.|Email or password is wrong\./.test(a.text))
            problems.push('401 page without the sign-in reason');
        } else if (a.status === 403) {
          htmlHeaders();
          if (originOk) problems.push('403 for a same-site decision');
          if (pageErrorOf(a) !== 'access_denied') problems.push(`403 page error ${pageErrorOf(a)}`);
        } else {
          problems.push(`unexpected status ${a.status}`);
        }
        if (intact && !d.post && a.status !== 200) problems.push('a valid request did not get the consent page');
        if (intact && d.post) {
          const want = d.action === 'deny' ? 302 : signedIn ? 302 : 401;
          if (a.status !== want) problems.push(`a valid decision answered ${a.status}, not ${want}`);
        }
        judge(w, a, problems);
      }),
      options(2),
    );
    expectReached('authorize', [
      '200',
      '302:code',
      '302:access_denied',
      '302:invalid_request',
      '302:invalid_target',
      '400:invalid_client',
      '400:invalid_request',
      '401',
      '403:access_denied',
    ]);
  });
});

describe('OAuth fuzz: the token endpoint', () => {
  const CODE_KEYS = ['grant_type', 'code', 'code_verifier', 'redirect_uri', 'resource', 'client_id', 'client_secret'];
  const drawArb = fc.record({
    c: clientArb,
    auth: authModeArb,
    body: bodyDrawArb,
    plan: planArb(CODE_KEYS),
  });

  it('exchanges a code only with every part intact, once; anything else is an RFC 6749 error', async () => {
    await fc.assert(
      fc.asyncProperty(drawArb, async (d) => {
        const { client, code, params } = await codeFor(d.c);
        const auth = clientAuth(client, d.auth, d.body.junk, d.body.scheme);
        const valid = {
          grant_type: 'authorization_code',
          code,
          code_verifier: d.c.verifier,
          redirect_uri: params.redirect_uri ?? '',
          resource: params.resource ?? '',
          ...auth.params,
        };
        const p = applyPlan(d.plan, valid);
        const w = tokenWire(d.c.origin, '/oauth/token', p, auth, d.body.encoding, d.body.broken);
        const a = await send(w);
        saw('exchange', a);
        const possible =
          auth.valid &&
          READABLE.has(d.body.encoding) &&
          !broken(
            p,
            ['grant_type', 'code', 'code_verifier', 'client_id', 'client_secret'],
            ['redirect_uri', 'resource'],
          );
        const expected = possible && p.changes.size === 0 && !p.extras && Object.keys(d.body.noise).length === 0;
        const problems = tokenProblems(a, { codes: TOKEN_ERRORS, possible, expected, auth, p, enc: d.body.encoding });
        if (a.status === 200) {
          const t = jsonOf(a.text);
          if (!String(t?.access_token).startsWith('mla_') || !String(t?.refresh_token).startsWith('mlr_'))
            problems.push('no tokens');
          if (t?.token_type !== 'Bearer' || t.expires_in !== 3600) problems.push('token_type or expires_in');
          judge(w, a, problems);
          // A code is single use.
          const again = await send(w);
          judge(
            w,
            again,
            again.status === 400 && oauthErrorOf(again) === 'invalid_grant' ? [] : ['a code was exchanged twice'],
          );
          return;
        }
        judge(w, a, problems);
      }),
      options(3),
    );
    expectReached('exchange', ['200', '400:invalid_grant', '400:invalid_request', '401:invalid_client']);
  });

  it('refreshes and revokes only with the right token and client; the rest are RFC 6749 / 7009 errors', async () => {
    const REFRESH_KEYS = ['grant_type', 'refresh_token', 'resource', 'scope', 'client_id', 'client_secret'];
    const REVOKE_KEYS = ['token', 'token_type_hint', 'client_id', 'client_secret'];
    const arb = fc.record({
      c: clientArb,
      refreshAuth: authModeArb,
      refreshBody: bodyDrawArb,
      refreshPlan: planArb(REFRESH_KEYS),
      revokeAuth: authModeArb,
      revokeBody: bodyDrawArb,
      revokePlan: planArb(REVOKE_KEYS),
      revokeWhich: fc.constantFrom('refresh', 'refresh', 'access', 'old-refresh'),
      hint: fc.constantFrom('refresh_token', 'access_token', 'junk'),
    });
    await fc.assert(
      fc.asyncProperty(arb, async (d) => {
        const { client, code, params } = await codeFor(d.c);
        const own = clientAuth(client, 'params', '', 'Basic');
        const first: Wire = {
          method: 'POST',
          url: `${d.c.origin}/oauth/token`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            code_verifier: d.c.verifier,
            redirect_uri: params.redirect_uri ?? '',
            ...own.params,
          }).toString(),
        };
        const issued = await send(first);
        judge(first, issued, issued.status === 200 ? [] : ['a valid exchange failed']);
        const tokens = jsonOf(issued.text) ?? {};
        let refreshToken = String(tokens.refresh_token);
        const resource = `${normalOrigin(d.c.origin)}/mcp`;

        // Refresh, fuzzed.
        const rAuth = clientAuth(client, d.refreshAuth, d.refreshBody.junk, d.refreshBody.scheme);
        const rp = applyPlan(d.refreshPlan, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          resource,
          scope: 'mcp',
          ...rAuth.params,
        });
        const rw = tokenWire(d.c.origin, '/oauth/token', rp, rAuth, d.refreshBody.encoding, d.refreshBody.broken);
        const ra = await send(rw);
        saw('refresh', ra);
        const rPossible =
          rAuth.valid &&
          READABLE.has(d.refreshBody.encoding) &&
          !broken(rp, ['grant_type', 'refresh_token', 'client_id', 'client_secret'], ['resource']);
        const rExpected =
          rPossible && rp.changes.size === 0 && !rp.extras && Object.keys(d.refreshBody.noise).length === 0;
        const rProblems = tokenProblems(ra, {
          codes: TOKEN_ERRORS,
          possible: rPossible,
          expected: rExpected,
          auth: rAuth,
          p: rp,
          enc: d.refreshBody.encoding,
        });
        judge(rw, ra, rProblems);
        const oldRefresh = refreshToken;
        if (ra.status === 200) {
          refreshToken = String(jsonOf(ra.text)?.refresh_token);
          // Presenting the rotated token again is reuse: refused (and the family ends).
          const again = await send(rw);
          judge(
            rw,
            again,
            again.status === 400 && oauthErrorOf(again) === 'invalid_grant'
              ? []
              : ['a rotated refresh token was accepted again'],
          );
        }

        // Revoke, fuzzed.
        const token =
          d.revokeWhich === 'access'
            ? String(tokens.access_token)
            : d.revokeWhich === 'old-refresh'
              ? oldRefresh
              : refreshToken;
        const vAuth = clientAuth(client, d.revokeAuth, d.revokeBody.junk, d.revokeBody.scheme);
        const vp = applyPlan(d.revokePlan, { token, token_type_hint: d.hint, ...vAuth.params });
        const vw = tokenWire(d.c.origin, '/oauth/revoke', vp, vAuth, d.revokeBody.encoding, d.revokeBody.broken);
        const va = await send(vw);
        saw('revoke', va);
        // RFC 7009 2.2: an unknown (altered) token is revoked "successfully"; a missing one is not.
        const vPossible =
          vAuth.valid &&
          READABLE.has(d.revokeBody.encoding) &&
          !broken(vp, ['client_id', 'client_secret']) &&
          vp.changes.get('token') !== 'dropped';
        const vExpected =
          vPossible && vp.changes.size === 0 && !vp.extras && Object.keys(d.revokeBody.noise).length === 0;
        const vProblems = tokenProblems(va, {
          codes: REVOKE_ERRORS,
          possible: vPossible,
          expected: vExpected,
          auth: vAuth,
          p: vp,
          enc: d.revokeBody.encoding,
        });
        if (va.status === 200 && va.text !== '') vProblems.push('revocation answered with a body');
        judge(vw, va, vProblems);
        if (va.status === 200 && vp.changes.size === 0 && d.revokeWhich !== 'old-refresh') {
          // A revoked family refreshes no more.
          const after: Wire = {
            method: 'POST',
            url: `${d.c.origin}/oauth/token`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: refreshToken,
              ...own.params,
            }).toString(),
          };
          const refused = await send(after);
          judge(
            after,
            refused,
            refused.status === 400 && oauthErrorOf(refused) === 'invalid_grant' ? [] : ['a revoked token refreshed'],
          );
        }
      }),
      options(4),
    );
    expectReached('refresh', ['200', '400:invalid_grant', '401:invalid_client']);
    expectReached('revoke', ['200', '400:invalid_request', '401:invalid_client']);
  });

  it('answers any grant with junk values with an RFC 6749 error', async () => {
    const arb = fc.record({
      origin: fc.constantFrom(...ORIGINS),
      path: fc.constantFrom('/oauth/token', '/oauth/revoke'),
      grant: fc.oneof(
        fc.constantFrom(
          'authorization_code',
          'refresh_token',
          'client_credentials',
          'password',
          'implicit',
          'urn:ietf:params:oauth:grant-type:device_code',
          'urn:ietf:params:oauth:grant-type:jwt-bearer',
          'AUTHORIZATION_CODE',
        ),
        junkText,
      ),
      values: fc.dictionary(
        fc.constantFrom(
          'code',
          'code_verifier',
          'refresh_token',
          'token',
          'client_id',
          'client_secret',
          'redirect_uri',
          'resource',
          'scope',
          'username',
          'password',
        ),
        fc.oneof(junkText, fc.constantFrom('mlac_x', 'mlr_x', 'mla_x', 'mlc_x', 'mlcs_x')),
      ),
      authorization: fc.oneof(
        fc.constant(null),
        junkText.map((j) => `Basic ${Buffer.from(j).toString('base64')}`),
        junkText.map((j) => headerSafe(j)),
        fc.constantFrom(
          'Basic',
          'Basic %%%',
          'Basic Og==',
          'Basic OjE=',
          `Basic ${Buffer.from('%:%').toString('base64')}`,
          'Bearer x',
          'Digest a=b',
        ),
      ),
      encoding: encodingArb,
      broken: brokenJsonArb,
      noise: noiseArb,
      // A registered client half the time, so draws get past client authentication to the grant.
      client: fc.constantFrom('public', 'confidential', 'junk', 'junk'),
    });
    const clients = {
      public: await register('http://localhost', ['https://app.example/cb'], 'none'),
      confidential: await register('http://localhost', ['https://app.example/cb'], 'client_secret_post'),
    };
    await fc.assert(
      fc.asyncProperty(arb, async (d) => {
        const values = { ...d.values };
        if (d.client !== 'junk') {
          const c = clients[d.client];
          values.client_id = c.id;
          if (c.secret !== null) values.client_secret = c.secret;
        }
        const pairs: [string, string][] = [['grant_type', d.grant], ...Object.entries(values)];
        const body = encodeBody(pairs, d.encoding, d.broken);
        const headers = {
          ...d.noise,
          ...body.headers,
          ...(d.authorization !== null ? { authorization: d.authorization } : {}),
        };
        const w: Wire = {
          method: 'POST',
          url: `${d.origin}${d.path}`,
          headers,
          ...(body.body !== undefined ? { body: body.body } : {}),
        };
        const a = await send(w);
        saw('junk-grant', a);
        // RFC 7009 2.2: revoking an unknown token is a success, for a client that authenticated.
        const revoked = d.path === '/oauth/revoke' && a.status === 200 && a.text === '' && d.client !== 'junk';
        const problems =
          gateRefusal(a) || revoked
            ? []
            : oauthJsonErrorProblems(a, d.path === '/oauth/token' ? TOKEN_ERRORS : REVOKE_ERRORS);
        judge(w, a, problems);
      }),
      options(5),
    );
    expectReached('junk-grant', ['400:unsupported_grant_type', '401:invalid_client', '400:invalid_grant']);
  });
});

describe('OAuth fuzz: metadata, preflight and other methods', () => {
  const arb = fc.record({
    origin: fc.constantFrom(...ORIGINS),
    path: fc.oneof(
      fc.constantFrom(
        '/.well-known/oauth-authorization-server',
        PROTECTED_RESOURCE_PATH,
        `${PROTECTED_RESOURCE_PATH}/mcp`,
        '/.well-known/oauth-authorization-server/mcp',
        '/.well-known/openid-configuration',
        '/oauth/register',
        '/oauth/token',
        '/oauth/revoke',
        '/oauth/authorize',
        '/oauth/',
        '/oauth/%2e%2e/docs',
      ),
      junkText.map((j) => `${PROTECTED_RESOURCE_PATH}/${encodeURIComponent(j.slice(0, 200))}`),
    ),
    method: fc.constantFrom('GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'),
    query: rawQueryArb,
    noise: noiseArb,
    body: fc.oneof(fc.constant(undefined), junkText),
    preflight: fc.record({
      'access-control-request-method': fc.constantFrom('POST', 'GET', 'DELETE', 'X'),
      'access-control-request-headers': fc.constantFrom('authorization', 'content-type, x-junk', ''),
    }),
  });

  it('serves the metadata documents and preflights, and answers anything else without a fault', async () => {
    await fc.assert(
      fc.asyncProperty(arb, async (d) => {
        const headers = { ...d.noise, ...(d.method === 'OPTIONS' ? d.preflight : {}) };
        const w: Wire = {
          method: d.method,
          url: `${d.origin}${d.path}${d.query}`,
          headers,
          ...(d.body !== undefined ? { body: d.body } : {}),
        };
        const a = await send(w);
        saw('metadata', a);
        const origin = normalOrigin(d.origin);
        const problems: string[] = [];
        const read = d.method === 'GET' || d.method === 'HEAD';
        // A HEAD answer has no body to show a gate's envelope: any gate status counts.
        const gated = gateRefusal(a) !== null || (d.method === 'HEAD' && [400, 403, 429].includes(a.status));
        if (d.path === '/.well-known/oauth-authorization-server' && read && !gated) {
          if (a.status !== 200) problems.push('no authorization server metadata');
          if (a.headers.get('access-control-allow-origin') !== '*') problems.push('metadata without CORS');
          const m = jsonOf(a.text);
          if (d.method === 'GET' && (m?.issuer !== origin || m.token_endpoint !== `${origin}/oauth/token`)) {
            problems.push(`issuer ${String(m?.issuer)} is not ${origin}`);
          }
        } else if (
          (d.path === PROTECTED_RESOURCE_PATH || d.path === `${PROTECTED_RESOURCE_PATH}/mcp`) &&
          read &&
          !gated
        ) {
          if (a.status !== 200) problems.push('no protected resource metadata');
          const m = jsonOf(a.text);
          if (
            d.method === 'GET' &&
            (m?.resource !== `${origin}/mcp` ||
              !Array.isArray(m.authorization_servers) ||
              !m.authorization_servers.includes(origin))
          ) {
            problems.push('protected resource metadata does not name this server');
          }
        } else if (
          d.method === 'OPTIONS' &&
          ['/oauth/register', '/oauth/token', '/oauth/revoke', '/.well-known/oauth-authorization-server'].includes(
            d.path,
          ) &&
          !gated
        ) {
          if (a.status !== 204 || !a.headers.get('access-control-allow-methods')?.includes('POST'))
            problems.push('no preflight answer');
        } else if (a.status >= 400) {
          // Whatever answered: an envelope with a consistent code, an RFC 6749 JSON error, or the authorize error page.
          const structured =
            envelopeCode(a) !== null ||
            oauthJsonErrorProblems(a, new Set([...REVOKE_ERRORS, ...REGISTER_ERRORS])).length === 0 ||
            (a.type.startsWith('text/html') && pageErrorOf(a) !== null) ||
            (d.method === 'HEAD' && a.text === '');
          if (!structured) problems.push('an unstructured error');
        }
        judge(w, a, problems);
      }),
      options(6),
    );
    expectReached('metadata', ['200', '204', '404']);
  });
});

describe('fuzz: /docs, its assets and the release feed', () => {
  const ASSET_TYPES: Record<string, string> = {
    'swagger-ui.css': 'text/css',
    'swagger-ui-bundle.js': 'text/javascript',
    'favicon-32x32.png': 'image/png',
    'init.js': 'text/javascript',
  };
  const assetArb = fc.oneof(
    fc.constantFrom(...Object.keys(ASSET_TYPES)),
    fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'valueOf',
      'hasOwnProperty',
      '..%2F..%2Fpackage.json',
      '%2e%2e',
      'swagger-ui.css%00',
      'SWAGGER-UI.CSS',
      'index.html',
      'package.json',
      'swagger-ui.css.map',
      '%E0%A4%A',
    ),
    junkText.map((j) => encodeURIComponent(j.slice(0, 300)) || 'x'),
  );
  const arb = fc.record({
    origin: fc.constantFrom(...ORIGINS),
    target: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('/docs', '/docs/', RELEASE_FEED_PATH) },
      { weight: 2, arbitrary: assetArb.map((f) => `/docs/assets/${f}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '/docs/assets',
          '/docs/assets/',
          '/docs//assets/init.js',
          `${RELEASE_FEED_PATH}/`,
          '/RELEASES.ATOM',
        ),
      },
    ),
    method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'OPTIONS'),
    query: rawQueryArb,
    noise: noiseArb,
    extra: fc.record(
      {
        'if-none-match': fc.constantFrom('*', '"x"', 'W/"junk'),
        'if-modified-since': fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'yesterday'),
        range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'bytes=9999999-', 'lines=1-2'),
        'accept-encoding': fc.constantFrom('gzip', 'br;q=0', '*', 'identity;q=0'),
        cookie: fc.constantFrom('a=b', 'x-session-token=%E0', '=;;='),
      },
      { requiredKeys: [] },
    ),
  });

  it('serves the page, its allowlisted assets and the feed; anything else is a NotFound envelope', async () => {
    await fc.assert(
      fc.asyncProperty(arb, async (d) => {
        const w: Wire = {
          method: d.method,
          url: `${d.origin}${d.target}${d.query}`,
          headers: { ...d.noise, ...d.extra },
        };
        const a = await send(w);
        saw('docs', a);
        const problems: string[] = [];
        const read = d.method === 'GET' || d.method === 'HEAD';
        const get = d.method === 'GET';
        // Classified by the path the server sees (`%2e%2e` and `//` are resolved by the URL parser).
        const path = new URL(w.url).pathname;
        const file = path.startsWith('/docs/assets/') ? path.slice('/docs/assets/'.length) : null;
        const assetType = file !== null && Object.hasOwn(ASSET_TYPES, file) ? ASSET_TYPES[file] : undefined;
        const gated = gateRefusal(a) !== null || (d.method === 'HEAD' && [400, 403, 429].includes(a.status));
        if (gated || !read) {
          // Refused by a gate, or a method these routes do not serve.
          if (!gateRefusal(a) && a.status >= 400 && envelopeCode(a) === null && a.text !== '')
            problems.push('an unstructured error');
        } else if (path === '/docs') {
          if (a.status !== 200 || !a.type.startsWith('text/html')) problems.push('no docs page');
          if (get && !a.text.includes('/docs/assets/swagger-ui-bundle.js'))
            problems.push('docs page without Swagger UI');
        } else if (path === '/docs/') {
          if (a.status !== 301 || a.headers.get('location') !== '/docs')
            problems.push('/docs/ does not redirect to /docs');
        } else if (path === RELEASE_FEED_PATH) {
          if (a.status !== 200 || !a.type.startsWith('application/atom+xml')) problems.push('no release feed');
          if (get && !a.text.includes('<feed')) problems.push('the feed is not Atom');
        } else if (assetType !== undefined) {
          if (a.status !== 200 || !a.type.startsWith(assetType))
            problems.push(`asset ${file} not served as ${assetType}`);
        } else if (file !== null && file !== '') {
          if (a.status !== 404 || (get && envelopeCode(a) !== 'NotFound'))
            problems.push(`asset ${file} is not a NotFound`);
        } else if (a.status >= 400 && get && envelopeCode(a) === null) {
          problems.push('an unstructured error');
        }
        // Static assets are third-party files (the Swagger bundle holds "Error: " texts); the rest is checked.
        judge(w, a, problems, assetType === undefined);
      }),
      options(7),
    );
    expectReached('docs', ['200', '301', '404']);
  });
});

describe('regressions found by this fuzz', () => {
  it('answers /docs/assets/<inherited property name> with NotFound, not a 500', async () => {
    for (const file of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const a = await send({ method: 'GET', url: `/docs/assets/${file}`, headers: {} });
      expect(a.status, file).toBe(404);
      expect(envelopeCode(a), file).toBe('NotFound');
    }
  });

  it('refuses basic client credentials with a broken percent-escape as invalid_client (401), not a 500', async () => {
    const client = await register('http://localhost', ['https://app.example/cb'], 'client_secret_basic');
    for (const [path, raw] of [
      ['/oauth/token', `%E0%A4%A:${client.secret}`],
      ['/oauth/token', `${client.id}:%`],
      ['/oauth/revoke', '%:x'],
    ] as const) {
      const a = await send({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(raw).toString('base64')}`,
        },
        body: 'grant_type=refresh_token&refresh_token=mlr_x&token=mlr_x',
      });
      expect(a.status, raw).toBe(401);
      expect(oauthErrorOf(a), raw).toBe('invalid_client');
      expect(a.headers.get('www-authenticate'), raw).toContain('Basic');
    }
  });
});
