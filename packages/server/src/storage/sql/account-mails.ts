/** The mails sent to accounts: verification links and sign-up notices. */
import type { AccountMailRepository } from '../types.js';
import { changes, lockUser, type Sql } from './query.js';
import { columnsOf } from './schema.js';

const DAY_MS = 86_400_000;

/** Account mails, rate-limited per account under the user's row lock. */
export function sqlAccountMails(s: Sql): AccountMailRepository {
  const { db } = s;
  return {
    recordIfBelow: (mail, { gapMs, perDay }) =>
      db.transaction().execute(async (trx) => {
        const now = mail.created_at;
        await lockUser(s, trx, mail.user_id);
        await trx
          .deleteFrom('account_mails')
          .where('created_at', '<=', now - DAY_MS)
          .where('expires_at', '<=', now)
          .execute();
        const { n, last } = await trx
          .selectFrom('account_mails')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
          .where('user_id', '=', mail.user_id)
          .where('created_at', '>', now - DAY_MS)
          .executeTakeFirstOrThrow();
        if (Number(n) >= perDay || (last !== null && now - Number(last) < gapMs)) return false;
        await trx.insertInto('account_mails').values(columnsOf('account_mails', mail)).execute();
        return true;
      }),
    // One transaction with the link's row locked: two presentations of the same link cannot both verify.
    redeem: (tokenHash, now) =>
      db.transaction().execute(async (trx) => {
        const mail = await trx
          .selectFrom('account_mails')
          .selectAll()
          .where('token_hash', '=', tokenHash)
          .where('kind', '=', 'verify')
          .where('expires_at', '>', now)
          .$if(s.engine === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (mail === undefined) return null;
        await trx.updateTable('account_mails').set({ token_hash: null }).where('user_id', '=', mail.user_id).execute();
        const verified = await trx
          .updateTable('users')
          .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
          .where('id', '=', mail.user_id)
          .where('email', '=', mail.email)
          .executeTakeFirst();
        if (changes(verified) === 0) return null;
        return (await trx.selectFrom('users').selectAll().where('id', '=', mail.user_id).executeTakeFirst()) ?? null;
      }),
  };
}
