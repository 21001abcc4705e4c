/** Repositories of accounts: users, sessions, tier grants, API keys, API usage and favorites. */
import type {
  ApiKeyRecord,
  ApiKeyRepository,
  ApiUsageRepository,
  FavoriteRepository,
  PasswordResetRepository,
  SessionRecord,
  SessionRepository,
  TierGrantRepository,
  UserRecord,
  UserRepository,
} from '../types.js';
import { changes, compiled, lockUser, pageBound, type Sql } from './query.js';
import { columnsOf } from './schema.js';

/**
 * A user row as a record: `signup_expires_at` only on a pending sign-up and `disabled_at` only on a
 * disabled account (both are optional on the record).
 */
function userOf<R extends { signup_expires_at: number | null; disabled_at: number | null }>({
  signup_expires_at,
  disabled_at,
  ...r
}: R) {
  return {
    ...r,
    ...(signup_expires_at === null ? {} : { signup_expires_at }),
    ...(disabled_at === null ? {} : { disabled_at }),
  };
}

/** Users, created together with their initial favorites. */
export function sqlUsers({ db }: Sql): UserRepository {
  const byId = compiled(db, 1, (d, id: string) => d.selectFrom('users').selectAll().where('id', '=', id));
  return {
    create: (given, favorites) =>
      db.transaction().execute(async (trx) => {
        const user: UserRecord = { ...given, email_verified_at: given.email_verified_at ?? null };
        const inserted = await trx
          .insertInto('users')
          .values({
            ...columnsOf('users', user),
            email_verified_at: user.email_verified_at ?? null,
            signup_expires_at: user.signup_expires_at ?? null,
            disabled_at: user.disabled_at ?? null,
          })
          .onConflict((oc) => oc.column('email').doNothing())
          .executeTakeFirst();
        if (changes(inserted) === 0) return null;
        if (favorites.length > 0) {
          await trx
            .insertInto('favorites')
            .values(favorites.map((asset_id) => ({ user_id: user.id, asset_id, created_at: user.created_at })))
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        return user;
      }),
    byId: async (id) => {
      const row = (await byId(db, id))[0];
      return row ? userOf(row) : null;
    },
    byEmail: async (email) => {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row ? userOf(row) : null;
    },
    list: async (page = {}) => {
      const limit = pageBound(page.limit);
      const offset = pageBound(page.offset) ?? 0;
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .$if(limit !== undefined, (q) => q.limit(limit ?? 0))
        .$if(offset > 0, (q) => (limit === undefined ? q.limit(Number.MAX_SAFE_INTEGER) : q).offset(offset))
        .execute();
      return rows.map(userOf);
    },
    setTier: async (id, tier) =>
      changes(await db.updateTable('users').set({ tier }).where('id', '=', id).executeTakeFirst()) > 0,
    markVerified: async (id, at) =>
      changes(
        await db
          .updateTable('users')
          .set((eb) => ({
            email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(at)),
            signup_expires_at: null,
          }))
          .where('id', '=', id)
          .executeTakeFirst(),
      ) > 0,
    replacePendingSignup: async (id, passwordHash, expiresAt) =>
      changes(
        await db
          .updateTable('users')
          .set({ password_hash: passwordHash, signup_expires_at: expiresAt })
          .where('id', '=', id)
          .where('email_verified_at', 'is', null)
          .executeTakeFirst(),
      ) > 0,
    setDisabled: async (id, at) =>
      changes(
        await db
          .updateTable('users')
          .set((eb) => ({ disabled_at: at === null ? null : eb.fn.coalesce('disabled_at', eb.val(at)) }))
          .where('id', '=', id)
          .executeTakeFirst(),
      ) > 0,
    setPassword: async (id, passwordHash) =>
      changes(
        await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).executeTakeFirst(),
      ) > 0,
    deleteLapsedSignups: async (now) =>
      changes(
        await db
          .deleteFrom('users')
          .where('email_verified_at', 'is', null)
          .where('signup_expires_at', 'is not', null)
          .where('signup_expires_at', '<=', now)
          .executeTakeFirst(),
      ),
    erase: (id, now) =>
      db.transaction().execute(async (trx) => {
        const keys = await trx.selectFrom('api_keys').selectAll().where('user_id', '=', id).execute();
        if (keys.length > 0) {
          await trx
            .insertInto('deleted_account_keys')
            .values(
              keys.map((k) => ({
                key_id: k.id,
                user_id: k.user_id,
                name: k.name,
                prefix: k.prefix,
                created_at: k.created_at,
                revoked_at: k.revoked_at ?? now,
                account_deleted_at: now,
              })),
            )
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        return changes(await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst()) > 0;
      }),
  };
}

/** Password resets: at most one per `gapMs` and `perDay` per account, each used once. */
export function sqlPasswordResets(s: Sql): PasswordResetRepository {
  const { db } = s;
  return {
    recordIfBelow: (reset, limits) =>
      db.transaction().execute(async (trx) => {
        await lockUser(s, trx, reset.user_id);
        const day = reset.created_at - 86_400_000;
        await trx
          .deleteFrom('password_resets')
          .where('user_id', '=', reset.user_id)
          .where('created_at', '<=', day)
          .where('expires_at', '<=', reset.created_at)
          .execute();
        const recent = await trx
          .selectFrom('password_resets')
          .select('created_at')
          .where('user_id', '=', reset.user_id)
          .where('created_at', '>', day)
          .execute();
        if (recent.length >= limits.perDay) return false;
        if (recent.some((r) => r.created_at > reset.created_at - limits.gapMs)) return false;
        await trx
          .insertInto('password_resets')
          .values({ ...reset, used_at: null })
          .execute();
        return true;
      }),
    redeem: (hash, now) =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('password_resets')
          .selectAll()
          .where('token_hash', '=', hash)
          .$if(s.engine === 'postgres', (b) => b.forUpdate())
          .executeTakeFirst();
        if (!row || row.used_at !== null || row.expires_at <= now) return null;
        // Every reset of the account is used up: an older link mailed before this one stops too.
        await trx
          .updateTable('password_resets')
          .set({ used_at: now })
          .where('user_id', '=', row.user_id)
          .where('used_at', 'is', null)
          .execute();
        return row.user_id;
      }),
  };
}

/** Login sessions, looked up by the hash of their token on every authenticated request. */
export function sqlSessions({ db }: Sql): SessionRepository {
  const byHash = compiled(db, 1, (d, h: string) => d.selectFrom('sessions').selectAll().where('token_hash', '=', h));
  return {
    create: async (s: SessionRecord) => {
      await db.insertInto('sessions').values(columnsOf('sessions', s)).execute();
    },
    byTokenHash: async (h) => (await byHash(db, h))[0] ?? null,
    deleteByTokenHash: async (h) =>
      changes(await db.deleteFrom('sessions').where('token_hash', '=', h).executeTakeFirst()) > 0,
    deleteByUser: async (userId) =>
      changes(await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst()),
    deleteExpired: async (now) =>
      changes(await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst()),
  };
}

/** Tier grants. */
export function sqlGrants({ db }: Sql): TierGrantRepository {
  return {
    create: async (g) => {
      await db.insertInto('tier_grants').values(columnsOf('tier_grants', g)).execute();
    },
    active: (userId, now) =>
      db
        .selectFrom('tier_grants')
        .selectAll()
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .orderBy('expires_at', 'desc')
        .execute(),
  };
}

/** API keys: the active cap is counted under the user's row lock, so it is exact across instances. */
export function sqlApiKeys(s: Sql): ApiKeyRepository {
  const { db } = s;
  const byHash = compiled(db, 1, (d, h: string) => d.selectFrom('api_keys').selectAll().where('key_hash', '=', h));
  const touch = compiled(db, 2, (d, id: string, now: number) =>
    d.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id),
  );
  return {
    createIfBelow: (key: ApiKeyRecord, maxActive, now) =>
      db.transaction().execute(async (trx) => {
        await lockUser(s, trx, key.user_id);
        const { n } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', key.user_id)
          .where('revoked_at', 'is', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .executeTakeFirstOrThrow();
        if (Number(n) >= maxActive) return false;
        await trx.insertInto('api_keys').values(columnsOf('api_keys', key)).execute();
        return true;
      }),
    byHash: async (h) => (await byHash(db, h))[0] ?? null,
    listByUser: (userId) =>
      db
        .selectFrom('api_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
    revoke: async (userId, id, now) =>
      changes(
        await db
          .updateTable('api_keys')
          .set({ revoked_at: now })
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      ) > 0,
    touch: async (id, now) => {
      await touch(db, id, now);
    },
  };
}

/**
 * The daily allowance: one upsert that counts the call only while below the limit, atomic on
 * both engines (PostgreSQL locks the row for the conflicting update), so concurrent calls from
 * several instances never exceed it.
 */
export function sqlApiUsage({ db }: Sql): ApiUsageRepository {
  const consume = compiled(db, 3, (d, userId: string, day: string, limit: number) =>
    d
      .insertInto('api_usage')
      .values({ user_id: userId, day, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'day'])
          .doUpdateSet((eb) => ({ count: eb('api_usage.count', '+', 1) }))
          .where('api_usage.count', '<', limit),
      )
      .returning('count'),
  );
  return {
    consume: async (userId, day, limit) => {
      if (limit <= 0) return null;
      const [row] = await consume(db, userId, day, limit);
      return row ? Number(row.count) : null;
    },
    used: async (userId, day) =>
      (
        await db
          .selectFrom('api_usage')
          .select('count')
          .where('user_id', '=', userId)
          .where('day', '=', day)
          .executeTakeFirst()
      )?.count ?? 0,
  };
}

/** Favorite assets of users. */
export function sqlFavorites({ db }: Sql): FavoriteRepository {
  return {
    add: async (userId, assetId, now) => {
      await db
        .insertInto('favorites')
        .values({ user_id: userId, asset_id: assetId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    remove: async (userId, assetId) => {
      await db.deleteFrom('favorites').where('user_id', '=', userId).where('asset_id', '=', assetId).execute();
    },
    list: async (userId) =>
      (
        await db
          .selectFrom('favorites')
          .select('asset_id')
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .orderBy('asset_id')
          .execute()
      ).map((r) => r.asset_id),
    popular: async (limit) =>
      (
        await db
          .selectFrom('favorites')
          .select((eb) => ['asset_id', eb.fn.countAll<number>().as('count')])
          .groupBy('asset_id')
          .orderBy('count', 'desc')
          .orderBy('asset_id')
          .limit(limit)
          .execute()
      ).map((r) => ({ asset_id: r.asset_id, count: Number(r.count) })),
  };
}
