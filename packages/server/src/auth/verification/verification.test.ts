/**
 * Sign-up without account enumeration and email verification, through the REST routes, with
 * verification required (as in production) unless a test says otherwise.
 */
import { SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { afterEach, describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.js';
import type { ServerConfig } from '../../platform/deps.js';
import { hashPassword } from '../secrets.js';
import { openSession } from '../users.js';
import { type MailMessage, smtpMailer } from './mailer.js';
import { VERIFICATION_TTL_MS } from './verification.js';

interface Body {
  code: number | string;
  message?: string;
  data: Record<string, unknown> | null;
}

function setup(config: Partial<ServerConfig> = { emailVerification: true }) {
  const sent: MailMessage[] = [];
  const h = harness(config, undefined, { mailer: { send: async (m) => void sent.push(m) } });
  const linkOf = (m: MailMessage | undefined): string => {
    const link = /https?:\/\/\S+\/v1\/auth\/verify\?token=\S+/.exec(m?.text ?? '')?.[0];
    if (link === undefined) throw new Error(`no link in ${JSON.stringify(m)}`);
    return link;
  };
  const open = async (link: string) => {
    const url = new URL(link);
    const res = await h.request(`${url.pathname}${url.search}`);
    return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
  };
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await h.json(path, body, { headers });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
  };
  return { h, sent, linkOf, open, post };
}

/** The answer less what differs between any two answers: the date, the request id, the budget spent so far, the address. */
function shape(r: { status: number; headers: Headers; body: Body }) {
  const headers = [...r.headers.entries()].filter(
    ([k]) => k !== 'date' && k !== 'x-request-id' && !k.startsWith('x-ratelimit-r') && k !== 'x-ratelimit-used',
  );
  return { status: r.status, headers, body: { ...r.body, data: { ...r.body.data, email: '<address>' } } };
}

describe('sign-up where verification is required', () => {
  it('answers a taken address exactly as a new one, and mails the owner instead', async () => {
    const t = setup();
    const first = await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    expect(first.status).toBe(202);
    expect(first.body.data).toEqual({ email: 'ada@example.com', verification: 'pending' });
    await t.open(t.linkOf(t.sent[0]));
    const owner = await t.h.storage.users.byEmail('ada@example.com');
    t.h.clock.now += 61_000; // past the per-account gap between two mails

    const fresh = await t.post('/v1/auth/signup', { email: 'grace@example.com', password: 'password-123' });
    const taken = await t.post('/v1/auth/signup', { email: 'Ada@Example.com', password: 'another-pass-9' });
    expect(shape(taken)).toEqual(shape(fresh));
    expect(taken.body.data).toEqual({ email: 'ada@example.com', verification: 'pending' });

    // One mail each: a link to the new address, a notice to the owner of the taken one.
    expect(t.sent.map((m) => m.to)).toEqual(['ada@example.com', 'grace@example.com', 'ada@example.com']);
    expect(t.sent[2]?.subject).toMatch(/tried to sign up/);
    expect(t.sent[2]?.text).not.toMatch(/token=/);
    // The owner's account is untouched: same password, no session opened by the attempt.
    expect(await t.h.storage.users.byEmail('ada@example.com')).toEqual(owner);
    expect(t.h.storage.db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 0 });
  });

  it('opens no session: signing in with the password just chosen fails alike for a new and a taken address', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    await t.open(t.linkOf(t.sent[0]));
    // An attacker signs up with the owner's address and with a new one, then tries to sign in.
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'attacker-pass-1' });
    await t.post('/v1/auth/signup', { email: 'new@example.com', password: 'attacker-pass-1' });
    const taken = await t.post('/v1/auth/login', { email: 'ada@example.com', password: 'attacker-pass-1' });
    const fresh = await t.post('/v1/auth/login', { email: 'new@example.com', password: 'attacker-pass-1' });
    expect(taken.status).toBe(401);
    expect({ ...shape(fresh), body: fresh.body }).toEqual({ ...shape(taken), body: taken.body });
    expect(taken.body.code).toBe('InvalidCredentials');
  });

  it('sends an unverified owner a new link, and the last sign-up sets the password (no pre-hijack)', async () => {
    const t = setup();
    // An attacker signs up first with the victim's address.
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'attacker-pass-1' });
    t.h.clock.now += 61_000;
    // The victim signs up, and follows the link that reaches her mailbox.
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-456' });
    expect(t.sent).toHaveLength(2);
    expect((await t.open(t.linkOf(t.sent[1]))).status).toBe(200);
    // Only the victim's password signs in; the attacker's holds nothing.
    const victim = await t.post('/v1/auth/login', { email: 'ada@example.com', password: 'password-456' });
    expect(victim.status).toBe(200);
    const attacker = await t.post('/v1/auth/login', { email: 'ada@example.com', password: 'attacker-pass-1' });
    expect(attacker.status).toBe(401);
  });

  it('erases an unverified sign-up after 24 hours; a verified one stays', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    await t.post('/v1/auth/signup', { email: 'grace@example.com', password: 'password-123' });
    await t.open(t.linkOf(t.sent[1]));
    const first = await t.h.storage.users.byEmail('ada@example.com');
    expect(first?.signup_expires_at).toBe(t.h.clock.now + 24 * 3_600_000);
    // A minute before the end it is still there (a sign-up elsewhere sweeps what lapsed).
    t.h.clock.now += 24 * 3_600_000 - 60_000;
    await t.post('/v1/auth/signup', { email: 'other@example.com', password: 'password-123' });
    expect((await t.h.storage.users.byEmail('ada@example.com'))?.id).toBe(first?.id);
    t.h.clock.now += 60_000;
    await t.post('/v1/auth/signup', { email: 'other2@example.com', password: 'password-123' });
    expect(await t.h.storage.users.byEmail('ada@example.com')).toBeNull();
    expect(await t.h.storage.users.byEmail('grace@example.com')).not.toBeNull();
    // The address is free again: a new sign-up makes a new account with a new link.
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-789' });
    const again = await t.h.storage.users.byEmail('ada@example.com');
    expect(again?.id).not.toBe(first?.id);
    expect(t.sent.at(-1)?.to).toBe('ada@example.com');
    expect(t.sent.at(-1)?.text).toMatch(/token=/);
  });
});

describe('the verification link', () => {
  it('verifies once, then signs in; a second use is refused', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    const link = t.linkOf(t.sent[0]);
    expect(link.startsWith('http://localhost/v1/auth/verify?token=mlv_')).toBe(true);
    const before = await t.post('/v1/auth/login', { email: 'ada@example.com', password: 'password-123' });
    expect([before.status, before.body.code]).toEqual([401, 'InvalidCredentials']);

    const first = await t.open(link);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(first.body.data).toMatchObject({
      user: { email: 'ada@example.com' },
      email_verified_at: new Date(t.h.clock.now).toISOString(),
    });
    const again = await t.open(link);
    expect([again.status, again.body.code]).toEqual([400, 'InvalidVerificationToken']);

    const after = await t.post('/v1/auth/login', { email: 'ada@example.com', password: 'password-123' });
    expect(after.status).toBe(200);
  });

  it('works for 24 hours and not after', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    await t.post('/v1/auth/signup', { email: 'bob@example.com', password: 'password-123' });
    const [ada, bob] = [t.linkOf(t.sent[0]), t.linkOf(t.sent[1])];
    t.h.clock.now += VERIFICATION_TTL_MS - 1;
    expect((await t.open(ada)).status).toBe(200);
    t.h.clock.now += 1;
    const late = await t.open(bob);
    expect([late.status, late.body.code]).toEqual([400, 'InvalidVerificationToken']);
    expect((await t.h.storage.users.byEmail('bob@example.com'))?.email_verified_at).toBeNull();
  });

  it('refuses an altered token, and the real one still works', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    const link = t.linkOf(t.sent[0]);
    const last = link.at(-1) === 'A' ? 'B' : 'A';
    for (const forged of [`${link.slice(0, -1)}${last}`, `${link}x`, link.replace('token=mlv_', 'token=mls_')]) {
      const r = await t.open(forged);
      expect([r.status, r.body.code], forged).toEqual([400, 'InvalidVerificationToken']);
    }
    const missing = await t.h.request('/v1/auth/verify');
    expect(missing.status).toBe(400);
    expect((await t.open(link)).status).toBe(200);
  });
});

describe('resending the link', () => {
  it('answers alike for unknown, verified and unverified addresses and mails only the unverified', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    await t.post('/v1/auth/signup', { email: 'bob@example.com', password: 'password-123' });
    await t.open(t.linkOf(t.sent[1]));
    t.sent.length = 0;
    t.h.clock.now += 61_000;
    const answers = await Promise.all(
      ['ada@example.com', 'bob@example.com', 'nobody@example.com'].map((email) =>
        t.post('/v1/auth/verify/resend', { email }),
      ),
    );
    expect(new Set(answers.map((a) => JSON.stringify(shape(a)))).size).toBe(1);
    expect(answers[0]?.status).toBe(202);
    expect(t.sent.map((m) => m.to)).toEqual(['ada@example.com']);
    expect((await t.open(t.linkOf(t.sent[0]))).status).toBe(200);
  });

  it('mails one account at most once a minute and five times a day, silently', async () => {
    const t = setup();
    await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    const resend = () => t.post('/v1/auth/verify/resend', { email: 'ada@example.com' });
    expect((await resend()).status).toBe(202);
    expect(t.sent).toHaveLength(1);
    for (let i = 0; i < 6; i += 1) {
      t.h.clock.now += 60_000;
      expect((await resend()).status).toBe(202);
    }
    expect(t.sent).toHaveLength(5);
    t.h.clock.now += 86_400_000;
    await resend();
    expect(t.sent).toHaveLength(6);
  });
});

describe('what an unverified account may do where verification is required', () => {
  /** An account made before verification was required, with a session it still holds. */
  async function legacyUser(t: ReturnType<typeof setup>) {
    const now = t.h.clock.now;
    const user = await t.h.storage.users.create(
      {
        id: crypto.randomUUID(),
        email: 'old@example.com',
        password_hash: await hashPassword('password-123'),
        tier: 'free',
        created_at: now,
      },
      [],
    );
    if (user === null) throw new Error('user not created');
    const { token } = await openSession(t.h.storage, user, now);
    return { user, headers: { 'x-session-token': token } };
  }

  it('reads, but creates no API key, connection or alert until verified (403 EmailNotVerified)', async () => {
    const t = setup();
    const { headers } = await legacyUser(t);
    for (const path of [
      '/v1/auth/me',
      '/v1/users/api_keys',
      '/v1/connections/user',
      '/v1/notifications',
      '/v2/config',
    ]) {
      expect((await t.h.request(path, { headers })).status, path).toBe(200);
    }
    const writes: [string, unknown][] = [
      ['/v1/users/api_keys', {}],
      ['/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID }],
      ['/v1/notifications', { asset_id: 'bitcoin', kind: 'price', target: 1 }],
    ];
    for (const [path, body] of writes) {
      const r = await t.post(path, body, headers);
      expect([r.status, r.body.code], path).toEqual([403, 'EmailNotVerified']);
      expect(r.body.message).toMatch(/verify\/resend/);
    }
    expect(
      await t.h.storage.apiKeys.listByUser((await t.h.storage.users.byEmail('old@example.com'))?.id ?? ''),
    ).toEqual([]);

    await t.post('/v1/auth/verify/resend', { email: 'old@example.com' });
    expect((await t.open(t.linkOf(t.sent[0]))).status).toBe(200);
    t.h.clock.now += 2_000; // past the session cache's second
    expect((await t.post('/v1/users/api_keys', {}, headers)).status).toBe(200);
    expect((await t.post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID }, headers)).status).toBe(200);
  });

  it('is not gated in the embedded default: sign-up opens a session and a taken address is 422', async () => {
    const t = setup({});
    const r = await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    expect(r.status).toBe(200);
    const token = String(r.body.data?.session_token);
    expect((await t.post('/v1/users/api_keys', {}, { 'x-session-token': token })).status).toBe(200);
    const dup = await t.post('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    expect([dup.status, dup.body.code]).toEqual([422, 'EmailAlreadyRegistered']);
    expect(t.sent).toEqual([]);
    // The flow still works there, to try it out: the link is mailed (to the log by default).
    await t.post('/v1/auth/verify/resend', { email: 'ada@example.com' });
    expect((await t.open(t.linkOf(t.sent[0]))).status).toBe(200);
  });
});

describe('sign-up mail over SMTP', () => {
  let receiver: SmtpReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it('delivers the link through a real SMTP server, and the link verifies', async () => {
    receiver = await startSmtpReceiver();
    const mailer = smtpMailer(`smtp://127.0.0.1:${receiver.port}`, 'marketlens <no-reply@example.com>');
    const h = harness({ emailVerification: true, publicUrl: 'https://api.example.com' }, undefined, { mailer });
    const res = await h.json('/v1/auth/signup', { email: 'ada@example.com', password: 'password-123' });
    expect(res.status).toBe(202);
    const mail = await receiver.next();
    expect(mail.to).toEqual(['ada@example.com']);
    const link = /https:\/\/api\.example\.com\/v1\/auth\/verify\?token=[A-Za-z0-9_-]+/.exec(mail.body)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link ?? '');
    const verified = await h.request(`${url.pathname}${url.search}`);
    expect(verified.status).toBe(200);
    mailer.close?.();
  });
});
