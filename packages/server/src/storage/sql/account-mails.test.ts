import { expect, it } from 'vitest';
import { describeEngines, rows, type TestEngine } from '../../../test/support/storage/engines.js';
import type { AccountMailRecord } from '../types.js';
import { MIGRATIONS } from './migrations.js';

const DAY = 86_400_000;
const LIMITS = { gapMs: 60_000, perDay: 3 };

async function withUser(engine: TestEngine) {
  const s = await engine.open();
  await s.users.create({ id: 'u1', email: 'a@x.io', password_hash: 'x', tier: 'free', created_at: 0 }, []);
  const mail = (id: string, at: number, extra: Partial<AccountMailRecord> = {}): AccountMailRecord => ({
    id,
    user_id: 'u1',
    kind: 'verify',
    token_hash: `hash-${id}`,
    email: 'a@x.io',
    created_at: at,
    expires_at: at + DAY,
    ...extra,
  });
  return { s, mail };
}

describeEngines('account mails (migration 13)', (engine) => {
  it('is the latest migration, and users start unverified', async () => {
    expect(MIGRATIONS.find((m) => m.version === 13)?.name).toBe('email_verification');
    const { s } = await withUser(engine);
    expect((await s.users.byId('u1'))?.email_verified_at).toBeNull();
    expect(await s.users.markVerified('u1', 5)).toBe(true);
    expect(await s.users.markVerified('u1', 9)).toBe(true);
    expect((await s.users.byId('u1'))?.email_verified_at).toBe(5);
    expect(await s.users.markVerified('nobody', 5)).toBe(false);
  });

  it('records a mail only past the gap and below the daily count', async () => {
    const { s, mail } = await withUser(engine);
    expect(await s.accountMails.recordIfBelow(mail('m1', 1_000), LIMITS)).toBe(true);
    expect(await s.accountMails.recordIfBelow(mail('m2', 60_999), LIMITS)).toBe(false);
    expect(await s.accountMails.recordIfBelow(mail('m3', 61_000), LIMITS)).toBe(true);
    expect(
      await s.accountMails.recordIfBelow(mail('m4', 200_000, { kind: 'signup_attempt', token_hash: null }), LIMITS),
    ).toBe(true);
    expect(await s.accountMails.recordIfBelow(mail('m5', 400_000), LIMITS)).toBe(false);
    // A day after the first, one slot is free again; rows past their day and expiry are dropped.
    expect(await s.accountMails.recordIfBelow(mail('m6', DAY + 1_000), LIMITS)).toBe(true);
    expect(await rows(s, 'SELECT id FROM account_mails ORDER BY created_at')).toEqual([
      { id: 'm3' },
      { id: 'm4' },
      { id: 'm6' },
    ]);
  });

  it('redeems a live link once, voids the others, and binds it to the address it went to', async () => {
    const { s, mail } = await withUser(engine);
    await s.accountMails.recordIfBelow(mail('m1', 0), LIMITS);
    await s.accountMails.recordIfBelow(mail('m2', 70_000), LIMITS);
    expect(await s.accountMails.redeem('hash-unknown', 100_000)).toBeNull();
    expect(await s.accountMails.redeem('hash-m1', DAY)).toBeNull(); // expired at created + 1 day
    expect((await s.accountMails.redeem('hash-m2', 100_000))?.email_verified_at).toBe(100_000);
    expect(await s.accountMails.redeem('hash-m2', 100_001)).toBeNull();

    const other = await withUser(engine);
    await other.s.accountMails.recordIfBelow(other.mail('m1', 0, { email: 'old@x.io' }), LIMITS);
    expect(await other.s.accountMails.redeem('hash-m1', 1)).toBeNull();
    expect((await other.s.users.byId('u1'))?.email_verified_at).toBeNull();
  });
});
