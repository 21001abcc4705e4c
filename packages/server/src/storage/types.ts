/**
 * The storage port. Every repository method is async so a PostgreSQL implementation can follow
 * the SQLite one without touching services. Times are epoch milliseconds; ids are UUIDs.
 */
import type { BalanceRepository, ConnectionRepository, FillRepository, PositionRepository } from './account-types.js';

import { type GrantSource, type PageOptions, TIERS, type Tier, type TierGrantRecord } from './records.js';

export { type GrantSource, type PageOptions, TIERS, type Tier, type TierGrantRecord };

export interface UserRecord {
  id: string;
  email: string;
  password_hash: string;
  /** The base tier an admin set; grants may raise the effective tier. */
  tier: Tier;
  created_at: number;
  /** When the owner proved the address (followed a verification link); absent or null: not yet. */
  email_verified_at?: number | null;
  /**
   * When an unverified sign-up lapses: it is erased then, and its address is free again (absent or
   * null: not a pending sign-up, such as an account made while verification was off).
   */
  signup_expires_at?: number | null;
  /**
   * When an operator disabled the account (`marketlens admin user disable`); absent or null: not
   * disabled. A disabled account cannot sign in, its API keys are refused (kept, not revoked) and
   * its scheduled work (connection syncs, alerts, pushes) is skipped until it is enabled again.
   */
  disabled_at?: number | null;
}

export interface SessionRecord {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
}

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  name: string | null;
  /** The first characters of the key, shown in lists so a user can tell keys apart. */
  prefix: string;
  key_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** A page of a list: at most `limit` rows (all when absent) after skipping `offset` (default 0). */

export interface UserRepository {
  /** Creates the user and its initial favorites atomically; null when the email is taken. */
  create(user: UserRecord, favorites: readonly string[]): Promise<UserRecord | null>;
  byId(id: string): Promise<UserRecord | null>;
  byEmail(email: string): Promise<UserRecord | null>;
  /** Users oldest first (ties by id), so pages stay stable while people sign up. */
  list(page?: PageOptions): Promise<UserRecord[]>;
  setTier(id: string, tier: Tier): Promise<boolean>;
  /** Marks the address verified at `at` (an earlier verification stands; a pending sign-up no longer lapses); false when absent. */
  markVerified(id: string, at: number): Promise<boolean>;
  /**
   * A repeated sign-up of an unverified account: its password becomes `passwordHash` and it lapses
   * at `expiresAt`; false (nothing changed) when the account is verified or absent.
   */
  replacePendingSignup(id: string, passwordHash: string, expiresAt: number): Promise<boolean>;
  /**
   * Disables the account at `at` (an earlier disable stands) or, with null, enables it again;
   * false when absent. Sessions and OAuth tokens are ended by the caller (see `disableUser`).
   */
  setDisabled(id: string, at: number | null): Promise<boolean>;
  /** Sets the password (a reset); false when absent. */
  setPassword(id: string, passwordHash: string): Promise<boolean>;
  /** Erases the unverified sign-ups that lapsed at or before `now` (their rows cascade). */
  deleteLapsedSignups(now: number): Promise<number>;
  /**
   * Erases the account and everything that hangs off it (sessions, keys, connections, fills,
   * alerts, devices, webhooks, OAuth codes and tokens, mails, ...) in one transaction, keeping only
   * the audit record of its API keys (id, name, prefix, created and revoked times) in a table of
   * its own. False when absent.
   */
  erase(id: string, now: number): Promise<boolean>;
}

/** A password reset: a single-use token, hashed, that lapses. */
export interface PasswordResetRecord {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface PasswordResetRepository {
  /** Stores the reset unless the account was sent one within `gapMs` or `perDay` in the last 24 hours (false then). */
  recordIfBelow(reset: PasswordResetRecord, limits: MailLimits): Promise<boolean>;
  /**
   * Uses a reset token once: the user id when it is unused and unexpired at `now` (it is marked
   * used, with every other reset of the account), else null.
   */
  redeem(tokenHash: string, now: number): Promise<string | null>;
}

/** A mail sent to an account: a verification link (its token hashed) or a sign-up attempt notice. */
export interface AccountMailRecord {
  id: string;
  user_id: string;
  kind: 'verify' | 'signup_attempt';
  /** SHA-256 of the link's token; null for a notice and once the link is used. */
  token_hash: string | null;
  /** The address the mail went to (a link verifies that address only). */
  email: string;
  created_at: number;
  /** When the link stops working (a notice: when the record may go). */
  expires_at: number;
}

/** How often one account may be mailed. */
export interface MailLimits {
  /** Least time between two mails. */
  gapMs: number;
  /** Most mails in any 24 hours. */
  perDay: number;
}

export interface AccountMailRepository {
  /**
   * Records the mail unless the account was mailed within `gapMs` or `perDay` times in the last
   * 24 hours (false then); records past both their expiry and a day are dropped on the way.
   */
  recordIfBelow(mail: AccountMailRecord, limits: MailLimits): Promise<boolean>;
  /**
   * Uses a verification link, once: when `tokenHash` names a live link, marks its address verified
   * (if it is still the user's), voids every link of the user and returns the user; else null.
   */
  redeem(tokenHash: string, now: number): Promise<UserRecord | null>;
}

export interface SessionRepository {
  create(session: SessionRecord): Promise<void>;
  byTokenHash(tokenHash: string): Promise<SessionRecord | null>;
  deleteByTokenHash(tokenHash: string): Promise<boolean>;
  /** Ends every session of the user (and so the OAuth codes and tokens bound to them); returns how many. */
  deleteByUser(userId: string): Promise<number>;
  deleteExpired(now: number): Promise<number>;
}

export interface TierGrantRepository {
  create(grant: TierGrantRecord): Promise<void>;
  /** Grants of the user that are still valid at `now`. */
  active(userId: string, now: number): Promise<TierGrantRecord[]>;
}

export interface ApiKeyRepository {
  /** Inserts the key unless the user already holds `maxActive` active keys; false then. */
  createIfBelow(key: ApiKeyRecord, maxActive: number, now: number): Promise<boolean>;
  byHash(keyHash: string): Promise<ApiKeyRecord | null>;
  listByUser(userId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked (the row stays as the audit record); false when absent or revoked. */
  revoke(userId: string, id: string, now: number): Promise<boolean>;
  touch(id: string, now: number): Promise<void>;
}

export interface ApiUsageRepository {
  /**
   * Counts one call of the user's day unless `limit` is reached. Returns the count after the
   * call, or null when the allowance was already used up.
   */
  consume(userId: string, day: string, limit: number): Promise<number | null>;
  used(userId: string, day: string): Promise<number>;
}

export interface FavoriteRepository {
  add(userId: string, assetId: string, now: number): Promise<void>;
  remove(userId: string, assetId: string): Promise<void>;
  list(userId: string): Promise<string[]>;
  /** Assets by how many users favorite them, most first (ties by asset id); at most `limit`. */
  popular(limit: number): Promise<{ asset_id: string; count: number }[]>;
}

export interface Storage {
  readonly users: UserRepository;
  readonly sessions: SessionRepository;
  readonly grants: TierGrantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly apiUsage: ApiUsageRepository;
  readonly favorites: FavoriteRepository;
  readonly accountMails: AccountMailRepository;
  readonly passwordResets: PasswordResetRepository;
  readonly connections: ConnectionRepository;
  readonly positions: PositionRepository;
  readonly balances: BalanceRepository;
  readonly fills: FillRepository;
  readonly promotions: import('./promotions-types.js').PromotionRepository;
  readonly campaigns: import('./promotions-types.js').CampaignRepository;
  readonly affiliateGrants: import('./promotions-types.js').AffiliateGrantRepository;
  readonly publishedPlans: import('./plans-types.js').PublishedPlanRepository;
  readonly pilot: import('./plans-types.js').PilotRepository;
  readonly alerts: import('./alerts-types.js').AlertRepository;
  readonly pushDevices: import('./alerts-types.js').PushDeviceRepository;
  readonly pushOutbox: import('./alerts-types.js').PushOutboxRepository;
  readonly pushSettings: import('./alerts-types.js').PushSettingsRepository;
  readonly alertWebhooks: import('./webhooks-types.js').AlertWebhookRepository;
  readonly notificationPreferences: import('./alerts-types.js').NotificationPreferencesRepository;
  readonly oauth: import('./oauth-types.js').OAuthRepository;
  /** Candles of the real market sources (the candle store), bounded, least recently used evicted. */
  readonly candles: import('@marketlens/exchanges').CandleStore & { bytes(): number };
  /** Schema version after migrations. */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}
