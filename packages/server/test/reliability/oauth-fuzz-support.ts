import fc from 'fast-check';
import { ERROR_CODES, type ErrorName } from '../../src/platform/errors/app-error.js';
import { headerNoise, headerSafe, junkText, notJsonArb } from './fuzz-request.js';

/**
 * Building blocks of the fuzz of the routes outside the OpenAPI document (oauth-fuzz.test.ts):
 * parameter sets drawn from a valid one (kept, dropped, altered, repeated, junk added), the
 * body encodings a client may get wrong, client authentication variants, and the oracles that
 * say what a client can rely on in any answer (no 5xx, no stack text, RFC error shapes).
 */

/** A request as sent. `url` is a path or an absolute URL (its origin is the server's base URL). */
export interface Wire {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Parameters in the order sent; a name may repeat. */
export type Pairs = [string, string][];

/** What a draw did to one parameter of the valid set. */
export type Change = 'dropped' | 'altered' | 'repeated';

/** A parameter set drawn from a valid one, with what was changed. */
export interface DrawnParams {
  pairs: Pairs;
  changes: Map<string, Change>;
  /** Junk parameters were added (a junk name can make a multipart body unreadable). */
  extras: boolean;
}

/** How a value is changed: replaced by junk, one of the near misses, or one character swapped. */
export type Tweak = { kind: 'junk'; value: string } | { kind: 'near'; index: number } | { kind: 'char'; at: number };

const tweakArb: fc.Arbitrary<Tweak> = fc.oneof(
  junkText.map((value): Tweak => ({ kind: 'junk', value })),
  fc.nat({ max: 7 }).map((index): Tweak => ({ kind: 'near', index })),
  fc.nat({ max: 200 }).map((at): Tweak => ({ kind: 'char', at })),
);

/** `v` as a client may send it by mistake. */
function tweak(v: string, t: Tweak): string {
  if (t.kind === 'junk') return t.value;
  if (t.kind === 'near') {
    const near = ['', v.toUpperCase(), `${v} `, ` ${v}`, v.slice(0, -1), `${v}x`, `${v}${v}`, encodeURIComponent(v)];
    return near[t.index] ?? v;
  }
  if (v.length === 0) return 'A';
  const i = t.at % v.length;
  return `${v.slice(0, i)}${v[i] === 'A' ? 'B' : 'A'}${v.slice(i + 1)}`;
}

type Action =
  | { kind: 'keep' }
  | { kind: 'drop' }
  | { kind: 'alter'; tweak: Tweak }
  | { kind: 'repeat'; tweak: Tweak; first: boolean };

/** What to do to each parameter of a valid set, drawn before the values are known (they may come from earlier steps). */
export interface ParamPlan {
  actions: Record<string, Action>;
  extras: [string, string][];
}

/**
 * A plan over the parameters `keys`: each kept (most often), dropped, replaced by a near miss or
 * junk, or sent twice (junk before or after it); plus up to two junk parameters, some with names
 * the endpoints read. `keep` weighs how often a parameter stays as it is (higher: deeper draws).
 */
export function planArb(keys: readonly string[], keep = 24): fc.Arbitrary<ParamPlan> {
  const actionArb: fc.Arbitrary<Action> = fc.oneof(
    { weight: keep, arbitrary: fc.constant<Action>({ kind: 'keep' }) },
    { weight: 1, arbitrary: fc.constant<Action>({ kind: 'drop' }) },
    { weight: 1, arbitrary: tweakArb.map((t): Action => ({ kind: 'alter', tweak: t })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ t: tweakArb, first: fc.boolean() })
        .map((r): Action => ({ kind: 'repeat', tweak: r.t, first: r.first })),
    },
  );
  const extras = fc.array(
    fc.tuple(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.constantFrom('grant_type', 'scope', 'code', 'token', 'client_id', '__proto__', 'constructor', 'action'),
      ),
      junkText,
    ),
    { maxLength: 2 },
  );
  return fc.record({
    actions: fc
      .tuple(...keys.map(() => actionArb))
      .map((as) => Object.fromEntries(keys.map((k, i) => [k, as[i] ?? { kind: 'keep' }]))),
    extras: fc.oneof({ weight: 3, arbitrary: fc.constant<[string, string][]>([]) }, { weight: 1, arbitrary: extras }),
  });
}

/** The parameters `plan` makes of `valid`, with what changed (a change that yields the same value is none). */
export function applyPlan(plan: ParamPlan, valid: Readonly<Record<string, string>>): DrawnParams {
  const pairs: Pairs = [];
  const changes = new Map<string, Change>();
  for (const [k, v] of Object.entries(valid)) {
    const a = plan.actions[k] ?? { kind: 'keep' };
    if (a.kind === 'keep') pairs.push([k, v]);
    else if (a.kind === 'drop') changes.set(k, 'dropped');
    else if (a.kind === 'alter') {
      const value = tweak(v, a.tweak);
      pairs.push([k, value]);
      if (value !== v) changes.set(k, 'altered');
    } else {
      const value = tweak(v, a.tweak);
      pairs.push(
        ...((a.first
          ? [
              [k, value],
              [k, v],
            ]
          : [
              [k, v],
              [k, value],
            ]) as Pairs),
      );
      if (value !== v) changes.set(k, 'repeated');
    }
  }
  for (const [k, v] of plan.extras) {
    pairs.push([k, v]);
    // A junk parameter under a name of the set repeats it (or replaces it, when that one was dropped).
    if (Object.hasOwn(valid, k) && v !== valid[k])
      changes.set(k, changes.get(k) === 'dropped' ? 'altered' : 'repeated');
  }
  return { pairs, changes, extras: plan.extras.length > 0 };
}

/** How a body is sent: the readable encodings, and the ways clients get it wrong. */
export type Encoding =
  | 'form'
  | 'form-charset'
  | 'json'
  | 'multipart'
  | 'json-nonstring'
  | 'json-broken'
  | 'json-as-form'
  | 'form-as-text'
  | 'none';

/** Encodings the server reads (values as strings). */
export const READABLE: ReadonlySet<Encoding> = new Set(['form', 'form-charset', 'json', 'multipart']);

/** Mostly readable encodings, sometimes a broken or mislabelled one. */
export const encodingArb: fc.Arbitrary<Encoding> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<Encoding>('form', 'form-charset', 'json', 'multipart') },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Encoding>('json-nonstring', 'json-broken', 'json-as-form', 'form-as-text', 'none'),
  },
);

/** Texts that are not JSON, for a body labelled JSON. */
export const brokenJsonArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{', '{"grant_type":', '[1,2', 'nul', '{"a":"b"}}', '\u0000', '', '{"a":"\\ud800"'),
  notJsonArb,
);

/** The body and content type of `pairs` in `encoding` (JSON keeps repeated names: the last one wins). */
export function encodeBody(
  pairs: Pairs,
  encoding: Encoding,
  broken: string,
): { headers: Record<string, string>; body?: string } {
  const json = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
  const form = new URLSearchParams(pairs).toString();
  switch (encoding) {
    case 'form':
      return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form };
    case 'form-charset':
      return { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }, body: form };
    case 'json':
      return { headers: { 'content-type': 'application/json' }, body: json };
    case 'multipart': {
      const b = 'fuzzb0undary';
      const parts = pairs.map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
      return {
        headers: { 'content-type': `multipart/form-data; boundary=${b}` },
        body: `${parts.join('')}--${b}--\r\n`,
      };
    }
    case 'json-nonstring':
      // Arrays, not strings: the server reads none of these values.
      return {
        headers: { 'content-type': 'application/json' },
        body: `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:[${JSON.stringify(v)}]`).join(',')}}`,
      };
    case 'json-broken':
      return { headers: { 'content-type': 'application/json' }, body: broken };
    case 'json-as-form':
      return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: json };
    case 'form-as-text':
      return { headers: { 'content-type': 'text/plain' }, body: form };
    case 'none':
      return { headers: {} };
  }
}

/** Mostly no extra headers; sometimes the reliability fuzz's header noise (which may trip the version gate). */
export const noiseArb: fc.Arbitrary<Record<string, string>> = fc
  .oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: headerNoise })
  .map((n) => Object.fromEntries(Object.entries(n).map(([k, v]) => [k, headerSafe(String(v))])));

/** Server base URLs a request may arrive on (the issuer and the `/mcp` audience follow it). */
export const ORIGINS = [
  'http://localhost',
  'https://api.marketlens.example',
  'http://127.0.0.1:8080',
  'http://[::1]:3000',
  'https://bücher.example',
] as const;

/** `origin` as the server sees it (punycode host, default port dropped). */
export const normalOrigin = (origin: string): string => new URL(origin).origin;

/** Query strings a URL parser or a query reader may choke on. */
export const rawQueryArb: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?',
    '?%',
    '?%ZZ=1',
    '?%E0%A4%A=x',
    '?a=1&a=2&a=%FF',
    '?&&&==',
    '?__proto__=1&constructor[prototype][x]=1',
    '?%00=%00',
    '?api_key=abc',
    `?x=${'B'.repeat(20_000)}`,
  ),
  fc
    .dictionary(fc.string({ minLength: 1, maxLength: 8 }), junkText, { maxKeys: 3 })
    .map((d) => `?${new URLSearchParams(d).toString()}`),
);

// ---- oracles ----

const STACK_MARKERS: RegExp[] = [
  /\n\s+at \S+ \(/,
  /\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/,
  /\b(?:Type|Range|Reference|Syntax|URI|Eval|Sqlite|Zod)?Error: /,
  /node_modules\//,
  /\/src\/[\w/.-]+\.[jt]s\b/,
];

/** A stack trace or internal error text in `text` that the request did not put there itself, or null. */
export function leakedInternals(text: string, sent: string): string | null {
  for (const re of STACK_MARKERS) {
    const m = re.exec(text);
    if (m && !sent.includes(m[0])) return m[0];
  }
  return null;
}

/** Everything a request carries, for telling reflected input from leaked internals. */
export const sentText = (w: Wire): string => `${w.url}\n${JSON.stringify(w.headers)}\n${w.body ?? ''}`;

/** A response read once. */
export interface Answer {
  status: number;
  type: string;
  headers: Headers;
  text: string;
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The platform's refusals, answered before (or instead of) a route, as `ErrorResponse` envelopes
 * (a body over the route's limit: 8 KB on registration, 64 KB on the other OAuth routes).
 */
export const GATE_CODES: ReadonlySet<string> = new Set([
  'RateLimited',
  'UnsupportedClientVersion',
  'ApiKeyInQuery',
  'PayloadTooLarge',
]);

/** The `ErrorResponse` code of an envelope answer whose code has this status, or null. */
export function envelopeCode(a: Answer): string | null {
  const body = parsed(a.text);
  if (body?.success !== false || !a.type.includes('application/json')) return null;
  const code = body.code;
  const entry = Object.entries(ERROR_CODES).find(([, v]) => v.code === code);
  if (!entry || (entry[1] as (typeof ERROR_CODES)[ErrorName]).status !== a.status) return null;
  return String(code);
}

/** A platform refusal (gate code in an envelope), or null. */
export const gateRefusal = (a: Answer): string | null => {
  const code = envelopeCode(a);
  return code !== null && GATE_CODES.has(code) ? code : null;
};

/** RFC 6749 5.2 (token endpoint) error codes, with RFC 8707's invalid_target. */
export const TOKEN_ERRORS: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
]);
/** RFC 7009 2.2.1 adds unsupported_token_type to the token endpoint's codes. */
export const REVOKE_ERRORS: ReadonlySet<string> = new Set([...TOKEN_ERRORS, 'unsupported_token_type']);
/** RFC 7591 3.2.2. */
export const REGISTER_ERRORS: ReadonlySet<string> = new Set([
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'invalid_software_statement',
  'unapproved_software_statement',
]);
/** RFC 6749 4.1.2.1 (with RFC 8707's invalid_target), minus the codes that would admit a server fault. */
export const AUTHORIZE_ERRORS: ReadonlySet<string> = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'invalid_target',
]);

/**
 * Problems of an RFC 6749 / 7591 JSON error: 400 or 401, JSON, `error` a registered code,
 * `error_description` a string, no-store; a 401 is `invalid_client` with a challenge.
 */
export function oauthJsonErrorProblems(a: Answer, codes: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  if (a.status !== 400 && a.status !== 401) problems.push(`status ${a.status} is not 400/401`);
  if (!a.type.includes('application/json')) problems.push(`content type ${a.type}`);
  const body = parsed(a.text);
  if (!body) return [...problems, 'body is not a JSON object'];
  if (typeof body.error !== 'string' || !codes.has(body.error))
    problems.push(`error ${String(body.error)} not allowed`);
  if (typeof body.error_description !== 'string') problems.push('no error_description');
  if (a.headers.get('cache-control') !== 'no-store') problems.push('error without cache-control: no-store');
  if (a.status === 401) {
    if (body.error !== 'invalid_client') problems.push(`401 with ${String(body.error)}`);
    if (!a.headers.get('www-authenticate')) problems.push('401 without WWW-Authenticate');
  }
  return problems;
}

/** The `error` of an OAuth JSON error answer, or null. */
export const oauthErrorOf = (a: Answer): string | null => {
  const e = parsed(a.text)?.error;
  return typeof e === 'string' ? e : null;
};

/** The JSON object of an answer, or null. */
export const jsonOf = parsed;

/** The error code shown on the HTML error page of the authorization endpoint, or null. */
export function pageErrorOf(a: Answer): string | null {
  return /<p class="err">([a-z_]+): /.exec(a.text)?.[1] ?? null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const DANGEROUS = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

/** Whether a registered redirect URI keeps to the policy (https, loopback http, or a native app scheme; no fragment). */
export function safeRedirectUri(uri: string): boolean {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.hash !== '' || DANGEROUS.has(u.protocol)) return false;
  return u.protocol !== 'http:' || LOOPBACK.has(u.hostname);
}

const ADDED_BY_SERVER = ['code', 'state', 'iss', 'error', 'error_description'];

/**
 * Whether a redirect `location` goes to one of `registered` (after removing the parameters the
 * server adds; a loopback http URI may differ in its port, RFC 8252 7.3).
 */
export function redirectsToRegistered(location: string, registered: readonly string[]): boolean {
  let loc: URL;
  try {
    loc = new URL(location);
  } catch {
    return false;
  }
  for (const k of ADDED_BY_SERVER) loc.searchParams.delete(k);
  return registered.some((r) => {
    const reg = new URL(r);
    const sameQuery = new URLSearchParams(reg.search).toString() === loc.searchParams.toString();
    const sameBase = reg.protocol === loc.protocol && reg.hostname === loc.hostname && reg.pathname === loc.pathname;
    const portOk = reg.port === loc.port || (reg.protocol === 'http:' && LOOPBACK.has(reg.hostname));
    return sameBase && portOk && sameQuery && reg.username === loc.username && reg.password === loc.password;
  });
}
