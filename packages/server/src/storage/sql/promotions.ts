/** Affiliate promotions, their invitations and claims, campaign banners and affiliate Elite grants. */
import type {
  AffiliateGrantRepository,
  CampaignRepository,
  ClaimOutcome,
  PromotionRecord,
  PromotionRepository,
} from '../promotions-types.js';
import type { TierGrantRecord } from '../types.js';
import { changes, type Db, lockUser, type Sql } from './query.js';
import type { PromotionsTable } from './schema.js';
import { columnsOf } from './schema.js';

function fromRow(row: PromotionsTable): PromotionRecord {
  return {
    ...row,
    theme: JSON.parse(row.theme) as PromotionRecord['theme'],
    steps: JSON.parse(row.steps) as PromotionRecord['steps'],
    validations: JSON.parse(row.validations) as PromotionRecord['validations'],
  };
}

function toRow(p: PromotionRecord): PromotionsTable {
  return {
    ...columnsOf('promotions', p),
    theme: JSON.stringify(p.theme),
    steps: JSON.stringify(p.steps),
    validations: JSON.stringify(p.validations),
  };
}

/** Promotions; a claim is checked and stored under the promotion's row lock (one exchange at a time). */
export function sqlPromotions(s: Sql): PromotionRepository {
  const { db } = s;
  const invitation = (q: Db, promotionId: string, userId: string) =>
    q
      .selectFrom('promotion_invitations')
      .selectAll()
      .where('promotion_id', '=', promotionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  const claimOf = (q: Db, promotionId: string, userId: string) =>
    q
      .selectFrom('promotion_claims')
      .selectAll()
      .where('promotion_id', '=', promotionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  const one = async (q: Promise<PromotionsTable | undefined>) => {
    const r = await q;
    return r ? fromRow(r) : null;
  };
  return {
    create: async (p) =>
      changes(
        await db
          .insertInto('promotions')
          .values(toRow(p))
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      ) > 0,
    byId: (id) => one(db.selectFrom('promotions').selectAll().where('id', '=', id).executeTakeFirst()),
    byExchange: (exchangeId) =>
      one(db.selectFrom('promotions').selectAll().where('connection_id', '=', exchangeId).executeTakeFirst()),
    list: async () =>
      (await db.selectFrom('promotions').selectAll().orderBy('created_at').orderBy('id').execute()).map(fromRow),
    unclaimedBy: async (userId) =>
      (
        await db
          .selectFrom('promotions as p')
          .selectAll('p')
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('promotion_claims as c')
                  .select('c.id')
                  .whereRef('c.promotion_id', '=', 'p.id')
                  .where('c.user_id', '=', userId),
              ),
            ),
          )
          .orderBy('p.created_at')
          .orderBy('p.id')
          .execute()
      ).map(fromRow),
    invite: async (i) =>
      changes(
        await db
          .insertInto('promotion_invitations')
          .values(columnsOf('promotion_invitations', i))
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      ) > 0,
    invitation: async (promotionId, userId) => (await invitation(db, promotionId, userId)) ?? null,
    invitations: (promotionId) =>
      db
        .selectFrom('promotion_invitations')
        .selectAll()
        .where('promotion_id', '=', promotionId)
        .orderBy('invited_at')
        .orderBy('user_id')
        .execute(),
    claimOf: async (promotionId, userId) => (await claimOf(db, promotionId, userId)) ?? null,
    claims: (promotionId) =>
      db
        .selectFrom('promotion_claims')
        .selectAll()
        .where('promotion_id', '=', promotionId)
        .orderBy('claimed_at')
        .orderBy('id')
        .execute(),
    claim: (c, grant: TierGrantRecord) =>
      db.transaction().execute(async (trx): Promise<ClaimOutcome> => {
        // One promotion per exchange: its row lock serializes the UID check of that exchange.
        if (s.engine === 'postgres') {
          await trx.selectFrom('promotions').select('id').where('id', '=', c.promotion_id).forUpdate().execute();
        }
        if ((await invitation(trx, c.promotion_id, c.user_id)) === undefined)
          return { ok: false, reason: 'not_invited' };
        if ((await claimOf(trx, c.promotion_id, c.user_id)) !== undefined)
          return { ok: false, reason: 'already_claimed' };
        const used = await trx
          .selectFrom('promotion_claims')
          .select('id')
          .where('connection_id', '=', c.connection_id)
          .where('uid', '=', c.uid)
          .executeTakeFirst();
        if (used !== undefined) return { ok: false, reason: 'uid_used' };
        await trx.insertInto('tier_grants').values(columnsOf('tier_grants', grant)).execute();
        await trx.insertInto('promotion_claims').values(columnsOf('promotion_claims', c)).execute();
        return { ok: true, claim: c, grant };
      }),
  };
}

/** Campaign banners. */
export function sqlCampaigns({ db }: Sql): CampaignRepository {
  const ordered = () => db.selectFrom('campaigns').selectAll().orderBy('registration_close').orderBy('id');
  return {
    create: async (c) =>
      changes(
        await db
          .insertInto('campaigns')
          .values(columnsOf('campaigns', c))
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      ) > 0,
    live: (now) => ordered().where('registration_close', '>', now).execute(),
    list: () => ordered().execute(),
  };
}

/** Affiliate Elite grants (rows of `tier_grants` with source `affiliate`), one in force at a time per user. */
export function sqlAffiliateGrants(s: Sql): AffiliateGrantRepository {
  const { db } = s;
  return {
    grantIfAbsent: (grant, now) =>
      db.transaction().execute(async (trx) => {
        await lockUser(s, trx, grant.user_id);
        const existing = await trx
          .selectFrom('tier_grants')
          .selectAll()
          .where('user_id', '=', grant.user_id)
          .where('source', '=', 'affiliate')
          .where('tier', '=', 'elite')
          .where('expires_at', '>', now)
          .orderBy('expires_at', 'desc')
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (existing !== undefined) return existing;
        await trx.insertInto('tier_grants').values(columnsOf('tier_grants', grant)).execute();
        return grant;
      }),
  };
}
