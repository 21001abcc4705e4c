/** The OAuth repository (tables of migrations 8, 10 and 11). */
import type {
  CodeRedemption,
  OAuthClientRecord,
  OAuthClientView,
  OAuthCodeRecord,
  OAuthRepository,
  OAuthTokenRecord,
  RefreshLookup,
} from '../oauth-types.js';
import { changes, compiled, type Db, lockKey, type Sql } from './query.js';
import type { OAuthClientsTable } from './schema.js';
import { columnsOf } from './schema.js';

const clientOf = ({
  authorized_at: _,
  approved_by: __,
  registered_from,
  ...r
}: OAuthClientsTable): OAuthClientRecord => ({
  ...r,
  ...(registered_from === null ? {} : { registered_from }),
  redirect_uris: JSON.parse(r.redirect_uris) as string[],
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
});

const clientRow = (c: OAuthClientRecord) => ({
  ...columnsOf('oauth_clients', c),
  registered_from: c.registered_from ?? null,
  redirect_uris: JSON.stringify(c.redirect_uris),
  metadata: JSON.stringify(c.metadata),
});

async function insertTokens(db: Db, tokens: readonly OAuthTokenRecord[]): Promise<void> {
  if (tokens.length > 0)
    await db
      .insertInto('oauth_tokens')
      .values(tokens.map((t) => columnsOf('oauth_tokens', t)))
      .execute();
}

async function revokeFamily(db: Db, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('oauth_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

async function sessionLive(db: Db, sessionId: string, now: number): Promise<boolean> {
  const r = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return r !== undefined;
}

/** Clients, codes and tokens; a code's redemption and a refresh rotation lock their row. */
export function sqlOAuth(s: Sql): OAuthRepository {
  const { db } = s;
  // A token is live only while the session it was issued under exists and has not expired.
  const liveToken = compiled(db, 3, (d, hash: string, kind: OAuthTokenRecord['kind'], now: number) =>
    d
      .selectFrom('oauth_tokens as t')
      .innerJoin('sessions as s', 's.id', 't.session_id')
      .selectAll('t')
      .where('t.token_hash', '=', hash)
      .where('t.kind', '=', kind)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .where('s.expires_at', '>', now),
  );
  const deleteUnused = async (q: Db, before: number) =>
    changes(
      await q
        .deleteFrom('oauth_clients')
        .where('authorized_at', 'is', null)
        .where('created_at', '<', before)
        .executeTakeFirst(),
    );
  // An approved client is idle when its approval is older than `idleBefore` and no token of it is live.
  const deleteIdle = async (q: Db, idleBefore: number, now: number) =>
    changes(
      await q
        .deleteFrom('oauth_clients')
        .where('authorized_at', 'is not', null)
        .where('authorized_at', '<', idleBefore)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('oauth_tokens as t')
                .select('t.token_hash')
                .whereRef('t.client_id', '=', 'oauth_clients.id')
                .where('t.revoked_at', 'is', null)
                .where('t.expires_at', '>', now),
            ),
          ),
        )
        .executeTakeFirst(),
    );
  const countClients = async (q: Db) =>
    Number(
      (
        await q
          .selectFrom('oauth_clients')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tokenOf = (q: Db, hash: string, clientId: string) =>
    q
      .selectFrom('oauth_tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .where('client_id', '=', clientId)
      .$if(s.engine === 'postgres', (b) => b.forUpdate())
      .executeTakeFirst();
  const useCode = async (q: Db, hash: string, now: number, keepUntil: number, tokens: readonly OAuthTokenRecord[]) => {
    await q
      .updateTable('oauth_codes')
      .set((eb) => ({
        used_at: now,
        family_id: tokens[0]?.family_id ?? null,
        // The later of the two; MAX() of two values is spelled differently by the engines.
        expires_at: eb.case().when('expires_at', '>', keepUntil).then(eb.ref('expires_at')).else(keepUntil).end(),
      }))
      .where('code_hash', '=', hash)
      .execute();
    await insertTokens(q, tokens);
  };

  return {
    createClient: async (c) => {
      await db.insertInto('oauth_clients').values(clientRow(c)).execute();
    },
    createClientBounded: (c, bound) =>
      db.transaction().execute(async (trx) => {
        // The bound is on the whole table: registrations are serialized.
        await lockKey(s, trx, 'oauth_clients');
        await deleteUnused(trx, bound.unusedBefore);
        await deleteIdle(trx, bound.idleBefore, bound.now);
        if (c.registered_from) {
          const held = await trx
            .selectFrom('oauth_clients')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('registered_from', '=', c.registered_from)
            .where('authorized_at', 'is', null)
            .executeTakeFirstOrThrow();
          if (Number(held.n) >= bound.perAddress) return 'address';
        }
        const n = await countClients(trx);
        if (n >= bound.max) {
          const victims = trx
            .selectFrom('oauth_clients')
            .select('id')
            .where('authorized_at', 'is', null)
            .orderBy('created_at')
            .limit(n - bound.max + 1);
          await trx.deleteFrom('oauth_clients').where('id', 'in', victims).execute();
        }
        if ((await countClients(trx)) >= bound.max) return 'full';
        await trx.insertInto('oauth_clients').values(clientRow(c)).execute();
        return 'stored';
      }),
    deleteUnusedClients: (before) => deleteUnused(db, before),
    deleteIdleClients: (idleBefore, now) => deleteIdle(db, idleBefore, now),
    listClients: async (now) => {
      const rows = await db
        .selectFrom('oauth_clients as c')
        .selectAll('c')
        .select((eb) =>
          eb
            .selectFrom('oauth_tokens as t')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('t.client_id', '=', 'c.id')
            .where('t.revoked_at', 'is', null)
            .where('t.expires_at', '>', now)
            .as('live_tokens'),
        )
        .orderBy('c.created_at')
        .orderBy('c.id')
        .execute();
      return rows.map(
        (r): OAuthClientView => ({
          ...clientOf(r),
          authorized_at: r.authorized_at,
          approved_by: r.approved_by,
          live_tokens: Number(r.live_tokens ?? 0),
        }),
      );
    },
    deleteClient: async (id) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('oauth_tokens').where('client_id', '=', id).execute();
        await trx.deleteFrom('oauth_codes').where('client_id', '=', id).execute();
        return changes(await trx.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst()) > 0;
      }),
    revokeUserTokens: async (userId, now) =>
      changes(
        await db
          .updateTable('oauth_tokens')
          .set({ revoked_at: now })
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      ),
    clientById: async (id) => {
      const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? clientOf(row) : null;
    },
    createCode: (code, perAccount) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto('oauth_codes').values(columnsOf('oauth_codes', code)).execute();
        const approved = changes(
          await trx
            .updateTable('oauth_clients')
            .set({ authorized_at: code.created_at, approved_by: code.user_id })
            .where('id', '=', code.client_id)
            .where('authorized_at', 'is', null)
            .executeTakeFirst(),
        );
        if (approved === 0 || perAccount === undefined) return;
        const mine = await trx
          .selectFrom('oauth_clients')
          .select('id')
          .where('approved_by', '=', code.user_id)
          .orderBy('authorized_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        const over = mine.slice(perAccount).map((r) => r.id);
        if (over.length === 0) return;
        await trx.deleteFrom('oauth_tokens').where('client_id', 'in', over).execute();
        await trx.deleteFrom('oauth_codes').where('client_id', 'in', over).execute();
        await trx.deleteFrom('oauth_clients').where('id', 'in', over).execute();
      }),
    redeemCode: async (hash, now, keepUntil, issue) => {
      // `issue` may throw (a wrong verifier): the code is used up all the same (that commits),
      // and the error is thrown after.
      let failure: { error: unknown } | null = null;
      const outcome = await db.transaction().execute(async (trx): Promise<CodeRedemption | null> => {
        const row = await trx
          .selectFrom('oauth_codes')
          .selectAll()
          .where('code_hash', '=', hash)
          .$if(s.engine === 'postgres', (b) => b.forUpdate())
          .executeTakeFirst();
        if (!row) return { status: 'invalid' };
        if (row.used_at !== null) {
          if (row.family_id !== null) await revokeFamily(trx, row.family_id, now);
          return { status: 'replayed' };
        }
        if (row.expires_at <= now) return { status: 'invalid' };
        const { used_at: _, family_id: __, ...code } = row;
        if (!(await sessionLive(trx, code.session_id, now))) {
          await useCode(trx, hash, now, keepUntil, []);
          return { status: 'ended' };
        }
        let tokens: readonly OAuthTokenRecord[];
        try {
          tokens = issue(code as OAuthCodeRecord);
        } catch (error) {
          failure = { error };
          await useCode(trx, hash, now, keepUntil, []);
          return null;
        }
        await useCode(trx, hash, now, keepUntil, tokens);
        return { status: 'valid', code: code as OAuthCodeRecord };
      });
      if (failure !== null) throw (failure as { error: unknown }).error;
      return outcome ?? { status: 'invalid' };
    },
    createTokens: (tokens) =>
      db.transaction().execute(async (trx) => {
        await insertTokens(trx, tokens);
      }),
    liveAccessToken: async (hash, now) => (await liveToken(db, hash, 'access', now))[0] ?? null,
    rotateRefresh: (hash, clientId, now, next) =>
      db.transaction().execute(async (trx): Promise<RefreshLookup> => {
        const any = await tokenOf(trx, hash, clientId);
        if (any?.kind !== 'refresh') return { status: 'invalid' };
        if (any.used_at !== null) {
          // RFC 9700 4.14.2: a rotated refresh token presented again means it leaked; end the family.
          await revokeFamily(trx, any.family_id, now);
          return { status: 'reused' };
        }
        const [live] = await liveToken(trx, hash, 'refresh', now);
        if (!live) return { status: 'invalid' };
        await trx
          .updateTable('oauth_tokens')
          .set({ used_at: now })
          .where('token_hash', '=', hash)
          .where('used_at', 'is', null)
          .execute();
        await insertTokens(trx, next(live));
        return { status: 'valid', token: live };
      }),
    revokeFamilyOf: async (hash, clientId, now) => {
      const t = await tokenOf(db, hash, clientId);
      if (!t) return false;
      await revokeFamily(db, t.family_id, now);
      return true;
    },
    sessionLive: (id, now) => sessionLive(db, id, now),
    deleteExpired: async (now) =>
      changes(await db.deleteFrom('oauth_codes').where('expires_at', '<=', now).executeTakeFirst()) +
      changes(await db.deleteFrom('oauth_tokens').where('expires_at', '<=', now).executeTakeFirst()),
  };
}
