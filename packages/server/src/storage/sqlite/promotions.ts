import type Database from 'better-sqlite3';
import type {
  AffiliateGrantRepository,
  CampaignRecord,
  CampaignRepository,
  ClaimOutcome,
  PromotionClaimRecord,
  PromotionInvitationRecord,
  PromotionRecord,
  PromotionRepository,
} from '../promotions-types.js';
import type { TierGrantRecord } from '../types.js';

type DB = Database.Database;

interface PromotionRow extends Omit<PromotionRecord, 'theme' | 'steps' | 'validations'> {
  theme: string;
  steps: string;
  validations: string;
}

function fromRow(row: PromotionRow): PromotionRecord {
  return {
    ...row,
    theme: JSON.parse(row.theme) as PromotionRecord['theme'],
    steps: JSON.parse(row.steps) as PromotionRecord['steps'],
    validations: JSON.parse(row.validations) as PromotionRecord['validations'],
  };
}

function toRow(p: PromotionRecord): PromotionRow {
  return {
    ...p,
    theme: JSON.stringify(p.theme),
    steps: JSON.stringify(p.steps),
    validations: JSON.stringify(p.validations),
  };
}

const one = (row: unknown): PromotionRecord | null => (row === undefined ? null : fromRow(row as PromotionRow));

/** The SQLite promotions repository. */
export function sqlitePromotions(db: DB): PromotionRepository {
  const insert = db.prepare(
    `INSERT INTO promotions (id, connection_id, partner_name, title, description, promotional_value, bonus_description,
       referral_url, icon, theme, steps, validations, created_at)
     VALUES (@id, @connection_id, @partner_name, @title, @description, @promotional_value, @bonus_description,
       @referral_url, @icon, @theme, @steps, @validations, @created_at)
     ON CONFLICT DO NOTHING`,
  );
  const byId = db.prepare('SELECT * FROM promotions WHERE id = ?');
  const byConnection = db.prepare('SELECT * FROM promotions WHERE connection_id = ?');
  const list = db.prepare('SELECT * FROM promotions ORDER BY created_at, id');
  const unclaimed = db.prepare(
    `SELECT p.* FROM promotions p
     WHERE NOT EXISTS (SELECT 1 FROM promotion_claims c WHERE c.promotion_id = p.id AND c.user_id = ?)
     ORDER BY p.created_at, p.id`,
  );
  const invite = db.prepare(
    'INSERT INTO promotion_invitations (promotion_id, user_id, invited_at) VALUES (@promotion_id, @user_id, @invited_at) ON CONFLICT DO NOTHING',
  );
  const invitation = db.prepare('SELECT * FROM promotion_invitations WHERE promotion_id = ? AND user_id = ?');
  const invitations = db.prepare(
    'SELECT * FROM promotion_invitations WHERE promotion_id = ? ORDER BY invited_at, user_id',
  );
  const claimOf = db.prepare('SELECT * FROM promotion_claims WHERE promotion_id = ? AND user_id = ?');
  const claims = db.prepare('SELECT * FROM promotion_claims WHERE promotion_id = ? ORDER BY claimed_at, id');
  const uidUsed = db.prepare('SELECT 1 FROM promotion_claims WHERE connection_id = ? AND uid = ?');
  const insertGrant = db.prepare(
    'INSERT INTO tier_grants (id, user_id, tier, source, granted_at, expires_at) VALUES (@id, @user_id, @tier, @source, @granted_at, @expires_at)',
  );
  const insertClaim = db.prepare(
    `INSERT INTO promotion_claims (id, promotion_id, connection_id, user_id, uid, claimed_at, grant_id)
     VALUES (@id, @promotion_id, @connection_id, @user_id, @uid, @claimed_at, @grant_id)`,
  );
  const claim = db.transaction((c: PromotionClaimRecord, grant: TierGrantRecord): ClaimOutcome => {
    if (invitation.get(c.promotion_id, c.user_id) === undefined) return { ok: false, reason: 'not_invited' };
    if (claimOf.get(c.promotion_id, c.user_id) !== undefined) return { ok: false, reason: 'already_claimed' };
    if (uidUsed.get(c.connection_id, c.uid) !== undefined) return { ok: false, reason: 'uid_used' };
    insertGrant.run(grant);
    insertClaim.run(c);
    return { ok: true, claim: c, grant };
  });
  return {
    create: async (p) => insert.run(toRow(p)).changes > 0,
    byId: async (id) => one(byId.get(id)),
    byConnection: async (connectionId) => one(byConnection.get(connectionId)),
    list: async () => (list.all() as PromotionRow[]).map(fromRow),
    unclaimedBy: async (userId) => (unclaimed.all(userId) as PromotionRow[]).map(fromRow),
    invite: async (i) => invite.run(i).changes > 0,
    invitation: async (promotionId, userId) =>
      (invitation.get(promotionId, userId) as PromotionInvitationRecord | undefined) ?? null,
    invitations: async (promotionId) => invitations.all(promotionId) as PromotionInvitationRecord[],
    claimOf: async (promotionId, userId) =>
      (claimOf.get(promotionId, userId) as PromotionClaimRecord | undefined) ?? null,
    claims: async (promotionId) => claims.all(promotionId) as PromotionClaimRecord[],
    claim: async (c, grant) => claim(c, grant),
  };
}

/** The SQLite campaigns repository. */
export function sqliteCampaigns(db: DB): CampaignRepository {
  const insert = db.prepare(
    `INSERT INTO campaigns (id, url, video_url, web_banner_video_position, registration_close, exchange_icon_url,
       exchange_icon_alt, prize_amount, prize_banner_label, prize_icon_url, created_at)
     VALUES (@id, @url, @video_url, @web_banner_video_position, @registration_close, @exchange_icon_url,
       @exchange_icon_alt, @prize_amount, @prize_banner_label, @prize_icon_url, @created_at)
     ON CONFLICT DO NOTHING`,
  );
  const live = db.prepare('SELECT * FROM campaigns WHERE registration_close > ? ORDER BY registration_close, id');
  const list = db.prepare('SELECT * FROM campaigns ORDER BY registration_close, id');
  return {
    create: async (c) => insert.run(c).changes > 0,
    live: async (now) => live.all(now) as CampaignRecord[],
    list: async () => list.all() as CampaignRecord[],
  };
}

/** The SQLite affiliate-grant repository (rows of `tier_grants` with source `affiliate`, tier `elite`). */
export function sqliteAffiliateGrants(db: DB): AffiliateGrantRepository {
  const held = db.prepare(
    `SELECT * FROM tier_grants WHERE user_id = ? AND source = 'affiliate' AND tier = 'elite' AND expires_at > ?
     ORDER BY expires_at DESC, id LIMIT 1`,
  );
  const insert = db.prepare(
    'INSERT INTO tier_grants (id, user_id, tier, source, granted_at, expires_at) VALUES (@id, @user_id, @tier, @source, @granted_at, @expires_at)',
  );
  const grantIfAbsent = db.transaction((grant: TierGrantRecord, now: number): TierGrantRecord => {
    const existing = held.get(grant.user_id, now) as TierGrantRecord | undefined;
    if (existing !== undefined) return existing;
    insert.run(grant);
    return grant;
  });
  return { grantIfAbsent: async (grant, now) => grantIfAbsent(grant, now) };
}
