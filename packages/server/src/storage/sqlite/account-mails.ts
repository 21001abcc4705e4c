/** SQLite repository of the mails sent to accounts: verification links and sign-up notices. */
import type Database from 'better-sqlite3';
import type { AccountMailRecord, AccountMailRepository, UserRecord } from '../types.js';

type DB = Database.Database;

const DAY_MS = 86_400_000;

export function sqliteAccountMails(db: DB): AccountMailRepository {
  const sweep = db.prepare('DELETE FROM account_mails WHERE created_at <= ? AND expires_at <= ?');
  const lastOf = db.prepare(
    'SELECT COUNT(*) AS n, MAX(created_at) AS last FROM account_mails WHERE user_id = ? AND created_at > ?',
  );
  const insert = db.prepare(
    `INSERT INTO account_mails (id, user_id, kind, token_hash, email, created_at, expires_at)
     VALUES (@id, @user_id, @kind, @token_hash, @email, @created_at, @expires_at)`,
  );
  const live = db.prepare("SELECT * FROM account_mails WHERE token_hash = ? AND kind = 'verify' AND expires_at > ?");
  const verify = db.prepare(
    'UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ? AND email = ?',
  );
  const voidLinks = db.prepare('UPDATE account_mails SET token_hash = NULL WHERE user_id = ?');
  const userById = db.prepare('SELECT * FROM users WHERE id = ?');

  const record = db.transaction((mail: AccountMailRecord, gapMs: number, perDay: number): boolean => {
    const now = mail.created_at;
    sweep.run(now - DAY_MS, now);
    const { n, last } = lastOf.get(mail.user_id, now - DAY_MS) as { n: number; last: number | null };
    if (n >= perDay || (last !== null && now - last < gapMs)) return false;
    insert.run(mail);
    return true;
  });
  // One transaction: two presentations of the same link cannot both verify.
  const redeem = db.transaction((tokenHash: string, now: number): UserRecord | null => {
    const mail = live.get(tokenHash, now) as AccountMailRecord | undefined;
    if (mail === undefined) return null;
    voidLinks.run(mail.user_id);
    if (verify.run(now, mail.user_id, mail.email).changes === 0) return null;
    return (userById.get(mail.user_id) as UserRecord | undefined) ?? null;
  });
  return {
    recordIfBelow: async (mail, limits) => record(mail, limits.gapMs, limits.perDay),
    redeem: async (tokenHash, now) => redeem(tokenHash, now),
  };
}
