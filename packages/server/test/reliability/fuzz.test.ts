import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantTier } from '../../src/auth/tiers.js';
import { liveSession } from '../../src/auth/users.js';
import type { Tier } from '../../src/storage/types.js';
import { type Harness, harness } from '../support/harness.js';
import { bodyText, registeredOperations } from '../support/operations.js';
import { admits, type DocOperation, type ServedDocument, servedDocument } from './document.js';
import { requestArb } from './fuzz-request.js';
import { offlineHarness } from './offline.js';

/**
 * Schema-driven fuzz (issue #13): for every operation of the served OpenAPI document, requests
 * drawn from its parameter and body schemas, valid and invalid, under every credential: no
 * credential, a session of each tier, a key of each tier, and duplicated or clashing credentials.
 * Every answer: never a 500; a failure is an ErrorResponse whose code is in ERROR_CODES with that
 * code's status, and a status the operation documents; a success validates against the
 * operation's response schema; a request ajv says breaks the document is not a success.
 *
 * FUZZ_RUNS (requests per operation, default 24) and FUZZ_SEED (default 1313) make it longer or
 * different: `FUZZ_RUNS=500 npx vitest run packages/server/src/reliability/fuzz.test.ts`.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 24);
const SEED = Number(process.env.FUZZ_SEED ?? 1313);

type Cred =
  | 'none'
  | `session_${Tier}`
  | `key_${Tier}`
  | 'session+key'
  | 'session+bearer'
  | 'key_twice'
  | 'garbage_session+key';

const CREDS: Cred[] = [
  'none',
  'session_free',
  'session_pro',
  'session_elite',
  'key_free',
  'key_pro',
  'key_elite',
  'session+key',
  'session+bearer',
  'key_twice',
  'garbage_session+key',
];

let h: Harness;
let doc: ServedDocument;
const sessions = new Map<Tier, string>();
const keys = new Map<Tier, string>();

async function sessionOf(tier: Tier): Promise<string> {
  const { token, userId } = await h.signup();
  if (tier !== 'free') await grantTier(h.storage, userId, tier, 'admin', 365, h.clock.now);
  return token;
}

function headersOf(cred: Cred): Record<string, string> {
  const s = (t: Tier) => ({ 'x-session-token': sessions.get(t) ?? '' });
  const k = (t: Tier) => ({ 'x-api-key': keys.get(t) ?? '' });
  switch (cred) {
    case 'none':
      return {};
    case 'session+key':
      return { ...s('pro'), ...k('free') };
    case 'session+bearer':
      return { ...s('elite'), authorization: 'Bearer fuzz-token' };
    case 'key_twice':
      // Two x-api-key headers arrive as one comma-joined value.
      return { 'x-api-key': `${keys.get('pro')}, ${keys.get('pro')}` };
    case 'garbage_session+key':
      return { 'x-session-token': 'mls_garbage', ...k('elite') };
    default: {
      const [kind, tier] = cred.split('_') as ['session' | 'key', Tier];
      return kind === 'session' ? s(tier) : k(tier);
    }
  }
}

/** Whether the credential is one the operation accepts (then a 401 would be wrong for valid requests). */
function credentialAdmitted(op: DocOperation, cred: Cred): boolean {
  if (cred === 'none') return admits(op, 'none');
  if (cred.startsWith('session_')) return admits(op, 'session');
  if (cred.startsWith('key_') && cred !== 'key_twice') return admits(op, 'api_key');
  return false;
}

/**
 * Discrepancies found by this fuzz in routes other helpers own, recorded in
 * /work/notes/reliability-findings.md and docs/reliability.md. A request whose every violation
 * matches an entry of its operation may be accepted; anything else still fails. Remove an entry
 * once its route is fixed.
 */
const OPEN_FINDINGS: { op: RegExp; violation: RegExp; id: string }[] = [];

function tolerated(opName: string, violations: string[]): boolean {
  return violations.every((v) => OPEN_FINDINGS.some((f) => f.op.test(opName) && f.violation.test(v)));
}

/** Codes the platform answers before an operation's own logic runs (auth, validation, limits, gates). */
const GATE_CODES = new Set([
  'InvalidRequest',
  'MalformedJson',
  'ApiKeyInQuery',
  'Unauthorized',
  'InvalidSession',
  'InvalidApiKey',
  'ApiKeyNotAccepted',
  'BearerNotAccepted',
  'UnsupportedClientVersion',
  'RateLimited',
  'ApiKeyAllowanceExceeded',
]);
/** Codes that say the credential itself was missing or not accepted. */
const CREDENTIAL_CODES = new Set(['Unauthorized', 'InvalidSession', 'InvalidApiKey', 'ApiKeyNotAccepted']);

function codeOf(text: string): string | null {
  try {
    return String((JSON.parse(text) as { code?: unknown }).code);
  } catch {
    return null;
  }
}

beforeAll(async () => {
  h = offlineHarness();
  for (const tier of ['free', 'pro', 'elite'] as const) {
    sessions.set(tier, await sessionOf(tier));
    keys.set(tier, await h.apiKey(await sessionOf(tier)));
  }
  doc = await servedDocument((p) => h.request(p));
});

describe('schema-driven fuzz over every operation of the OpenAPI document', () => {
  it('covers every registered operation', () => {
    const registered = registeredOperations(h.app).map((o) => `${o.method} ${o.path}`);
    expect(doc.operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(registered.sort());
    expect(doc.operations.length).toBeGreaterThan(20);
  });

  // The document is read again here (collection time) so each operation is its own test.
  const ops = registeredOperations(harness().app);
  it.each(ops.map((o, i) => [`${o.method} ${o.path}`, o.method, o.path, i] as const))(
    '%s',
    async (_name, method, path, index) => {
      const op = doc.operations.find((o) => o.method === method && o.path === path);
      if (!op) throw new Error(`${method} ${path} is missing from the served document`);
      const draws = fc.sample(fc.tuple(requestArb(doc, op), fc.constantFrom(...CREDS)), {
        numRuns: RUNS,
        seed: SEED + index,
      });
      const failures: string[] = [];
      const counts: Record<string, number> = {};
      let reached = 0;
      for (const [req, cred] of draws) {
        // Keys are metered per day; the fuzz is about answers, not allowances (limits-concurrency covers those).
        h.storage.db.prepare('DELETE FROM api_usage').run();
        const headers = { ...req.init.headers, ...headersOf(cred) };
        const res = await h.request(req.url, { ...req.init, headers });
        const text = await bodyText(res);
        counts[res.status] = (counts[res.status] ?? 0) + 1;
        const problems = doc.check(op, res.status, res.headers.get('content-type') ?? '', text);
        if (req.violations.length > 0 && res.status < 400 && !tolerated(`${method} ${path}`, req.violations)) {
          problems.push(`accepted a request the document rejects (${req.violations.join('; ')})`);
        }
        const code = res.status >= 400 ? codeOf(text) : null;
        if (res.status < 400 || (code !== null && !GATE_CODES.has(code))) reached++;
        if (
          req.violations.length === 0 &&
          credentialAdmitted(op, cred) &&
          code !== null &&
          CREDENTIAL_CODES.has(code)
        ) {
          problems.push('a conforming request with an accepted credential was refused as unauthenticated');
        }
        if (problems.length > 0) {
          failures.push(
            `${req.init.method} ${req.url.slice(0, 200)} [${cred}, ${req.mode}] body=${(req.init.body ?? '').slice(0, 120)} -> ${res.status} ${text.slice(0, 200)}: ${problems.join(' | ')}`,
          );
        }
        // A session an operation ended (logout) is replaced, so later draws still run signed in.
        if (cred.startsWith('session') && method !== 'GET') {
          for (const [tier, token] of sessions) {
            if (!(await liveSession(h.storage, token, h.clock.now))) sessions.set(tier, await sessionOf(tier));
          }
        }
      }
      expect(failures).toEqual([]);
      // Not every draw may be refused at the gate: some must reach the operation's own logic.
      expect(reached, JSON.stringify(counts)).toBeGreaterThan(0);
    },
  );
});
