/**
 * The storage port over an open SQL database: every repository is written once on kysely and runs
 * on SQLite and PostgreSQL alike.
 */
import type { Storage } from '../types.js';
import { sqlAccountMails } from './account-mails.js';
import { sqlBalances, sqlConnections, sqlFills, sqlPositions } from './accounts.js';
import { sqlAlerts, sqlNotificationPreferences, sqlPushDevices, sqlPushOutbox, sqlPushSettings } from './alerts.js';
import { type CandleStoreOptions, sqlCandleStore } from './candles.js';
import type { SqlDatabase } from './database.js';
import { schemaVersion } from './migrate.js';
import { sqlOAuth } from './oauth.js';
import { sqlPilot, sqlPublishedPlans } from './plans.js';
import { sqlAffiliateGrants, sqlCampaigns, sqlPromotions } from './promotions.js';
import type { Sql } from './query.js';
import { sqlApiKeys, sqlApiUsage, sqlFavorites, sqlGrants, sqlPasswordResets, sqlSessions, sqlUsers } from './users.js';
import { sqlAlertWebhooks } from './webhooks.js';

/** What the storage over a SQL database is built with, besides the database. */
export interface SqlStorageOptions {
  candles?: CandleStoreOptions;
  /** Bytes the candle store holds when it opens (read by the caller: synchronously on SQLite). */
  candleBytes: number;
}

/** The storage over a migrated database, and the database beneath it. */
export type SqlStorage = Storage & { readonly sql: SqlDatabase };

/** Builds the repositories over a migrated database; `close()` closes the database. */
export function createSqlStorage(database: SqlDatabase, options: SqlStorageOptions): SqlStorage {
  const s: Sql = { engine: database.engine, db: database.kysely };
  return {
    sql: database,
    candles: sqlCandleStore(s, options.candleBytes, options.candles),
    users: sqlUsers(s),
    sessions: sqlSessions(s),
    grants: sqlGrants(s),
    apiKeys: sqlApiKeys(s),
    apiUsage: sqlApiUsage(s),
    favorites: sqlFavorites(s),
    accountMails: sqlAccountMails(s),
    passwordResets: sqlPasswordResets(s),
    connections: sqlConnections(s),
    positions: sqlPositions(s),
    balances: sqlBalances(s),
    fills: sqlFills(s),
    promotions: sqlPromotions(s),
    campaigns: sqlCampaigns(s),
    affiliateGrants: sqlAffiliateGrants(s),
    publishedPlans: sqlPublishedPlans(s),
    pilot: sqlPilot(s),
    alerts: sqlAlerts(s),
    pushDevices: sqlPushDevices(s),
    pushOutbox: sqlPushOutbox(s),
    pushSettings: sqlPushSettings(s),
    alertWebhooks: sqlAlertWebhooks(s),
    notificationPreferences: sqlNotificationPreferences(s),
    oauth: sqlOAuth(s),
    schemaVersion: () => schemaVersion(database),
    close: () => database.close(),
  };
}
