/**
 * The tables as the query builder sees them, one interface per table of the migrations. Rows hold
 * what both engines store: epoch-ms integers, 0/1 flags, JSON as text; the repositories turn
 * them into the port's records.
 */
import type { MarketType } from '@marketlens/exchanges';
import type { Generated } from 'kysely';
import type { BalanceRecord, ConnectionRecord, FillRecord, PositionRecord } from '../account-types.js';
import type { AlertRecord, OutboxRecord, PushDeviceRecord } from '../alerts-types.js';
import type { OAuthCodeRecord, OAuthTokenRecord } from '../oauth-types.js';
import type { PilotAccessRecord, PilotTradeRecord, PublishedPlanRow } from '../plans-types.js';
import type {
  CampaignRecord,
  PromotionClaimRecord,
  PromotionInvitationRecord,
  PromotionRecord,
} from '../promotions-types.js';
import type { AccountMailRecord, ApiKeyRecord, SessionRecord, TierGrantRecord, UserRecord } from '../types.js';
import type { AlertWebhookRecord, WebhookOutboxRecord } from '../webhooks-types.js';

/** A 0/1 integer column standing for a boolean. */
export type Flag = number;

export interface UsersTable extends Omit<UserRecord, 'email_verified_at' | 'signup_expires_at' | 'disabled_at'> {
  email_verified_at: number | null;
  signup_expires_at: number | null;
  disabled_at: number | null;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface DeletedAccountKeysTable {
  key_id: string;
  user_id: string;
  name: string | null;
  prefix: string;
  created_at: number;
  revoked_at: number;
  account_deleted_at: number;
}

export interface ApiUsageTable {
  user_id: string;
  day: string;
  count: number;
}

export interface FavoritesTable {
  user_id: string;
  asset_id: string;
  created_at: number;
}

export interface PushDevicesTable extends Omit<PushDeviceRecord, 'active'> {
  active: Flag;
}

/** An outbox row: the id is assigned by the database, attempts start at 0. */
export type OutboxTable<R extends OutboxRecord | WebhookOutboxRecord> = Omit<R, 'id' | 'attempts'> & {
  id: Generated<number>;
  attempts: Generated<number>;
};

export interface NotificationPreferencesTable {
  user_id: string;
  pilot_trade_notification_disabled: Flag;
  regime_notification_disabled: Flag;
  updated_at: number;
}

/** JSON columns (`plan`, `legs`) as text. */
export interface PublishedPlansTable extends Omit<PublishedPlanRow, 'plan' | 'legs'> {
  plan: string;
  legs: string;
}

export interface PilotDecisionsTable {
  plan_id: string;
  decision: 'taken' | 'skipped';
  reason: string | null;
  decided_at: number;
}

export interface PilotTradesTable extends Omit<PilotTradeRecord, 'take_profits' | 'legs'> {
  take_profits: string;
  legs: string;
}

export interface PilotStateTable {
  id: number;
  started_at: number;
  last_active_at: number;
}

export interface PromotionsTable extends Omit<PromotionRecord, 'theme' | 'steps' | 'validations'> {
  theme: string;
  steps: string;
  validations: string;
}

export interface OAuthClientsTable {
  id: string;
  secret_hash: string | null;
  name: string | null;
  redirect_uris: string;
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
  metadata: string;
  created_at: number;
  authorized_at: number | null;
  approved_by: string | null;
  registered_from: string | null;
}

export interface OAuthCodesTable extends OAuthCodeRecord {
  used_at: number | null;
  family_id: string | null;
}

export interface CandleSeriesTable {
  source: string;
  instrument: string;
  timeframe: string;
  venue: string;
  pair: string;
  market_type: MarketType;
  rows: number;
  candles: Buffer;
  bytes: number;
  complete: Flag;
  fetched_at: number;
  used_at: number;
}

export interface AlertWebhooksTable extends Omit<AlertWebhookRecord, 'active'> {
  active: Flag;
}

export interface WebhookNoticesTable {
  alert_id: string;
  armed_at: number;
  trigger_candle: number;
  idempotency_key: string;
  category: string;
  payload: string;
  created_at: number;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

/** Every table of the schema, by name. */
export interface Schema {
  users: UsersTable;
  sessions: SessionRecord;
  tier_grants: TierGrantRecord;
  favorites: FavoritesTable;
  api_keys: ApiKeyRecord;
  api_usage: ApiUsageTable;
  user_connections: ConnectionRecord;
  positions: PositionRecord;
  balances: BalanceRecord;
  fills: FillRecord;
  push_devices: PushDevicesTable;
  alerts: AlertRecord;
  push_outbox: OutboxTable<OutboxRecord>;
  push_settings: { name: string; value: string };
  notification_preferences: NotificationPreferencesTable;
  published_plans: PublishedPlansTable;
  pilot_decisions: PilotDecisionsTable;
  pilot_trades: PilotTradesTable;
  pilot_state: PilotStateTable;
  promotions: PromotionsTable;
  promotion_invitations: PromotionInvitationRecord;
  promotion_claims: PromotionClaimRecord;
  campaigns: CampaignRecord;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokenRecord;
  candle_series: CandleSeriesTable;
  pilot_access: PilotAccessRecord;
  account_mails: AccountMailRecord;
  alert_webhooks: AlertWebhooksTable;
  webhook_notices: WebhookNoticesTable;
  webhook_outbox: OutboxTable<WebhookOutboxRecord>;
  password_resets: PasswordResetsTable;
  deleted_account_keys: DeletedAccountKeysTable;
  schema_migrations: SchemaMigrationsTable;
}

/**
 * The columns a caller's record is written to, per table: a record may carry more fields than
 * its table has (a view, a spread of a larger object), and only these are inserted.
 */
export const COLUMNS = {
  users: [
    'id',
    'email',
    'password_hash',
    'tier',
    'created_at',
    'email_verified_at',
    'signup_expires_at',
    'disabled_at',
  ],
  sessions: ['id', 'user_id', 'token_hash', 'created_at', 'expires_at'],
  tier_grants: ['id', 'user_id', 'tier', 'source', 'granted_at', 'expires_at'],
  api_keys: ['id', 'user_id', 'name', 'prefix', 'key_hash', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'],
  user_connections: [
    'id',
    'user_id',
    'venue',
    'label',
    'credentials',
    'created_at',
    'last_sync_at',
    'last_success_at',
    'last_error',
    'failures',
    'next_sync_at',
    'fills_synced_until',
    'fills_cursor',
    'fills_cursor_since',
    'fills_cursor_until',
    'protective_levels_synced_at',
  ],
  alerts: [
    'id',
    'user_id',
    'asset_id',
    'kind',
    'timeframe',
    'evaluates_as',
    'target',
    'direction',
    'zone_low',
    'zone_high',
    'reference',
    'status',
    'created_at',
    'updated_at',
    'armed_at',
    'expires_at',
    'triggered_at',
    'trigger_value',
    'trigger_candle',
    'last_evaluated_open',
  ],
  push_devices: ['id', 'user_id', 'endpoint', 'p256dh', 'auth', 'name', 'created_at', 'updated_at'],
  alert_webhooks: ['id', 'user_id', 'url', 'name', 'secret', 'created_at', 'updated_at'],
  published_plans: [
    'id',
    'asset_id',
    'timeframe',
    'candle_time',
    'published_at',
    'venue',
    'pair',
    'market_type',
    'side',
    'confidence',
    'confidence_low',
    'confidence_high',
    'source',
    'plan',
    'outcome',
    'entered_at',
    'fill_price',
    'closed_at',
    'targets_hit',
    'realized_r',
    'return_pct',
    'legs',
    'reason',
    'updated_at',
  ],
  pilot_trades: [
    'id',
    'trade_index',
    'plan_id',
    'asset_id',
    'timeframe',
    'pair',
    'side',
    'opened_at',
    'entry_price',
    'stop_loss',
    'take_profits',
    'quantity',
    'notional_usd',
    'margin_usd',
    'leverage',
    'risk_usd',
    'status',
    'outcome',
    'closed_at',
    'exit_price',
    'realized_r',
    'pnl_usd',
    'return_on_margin_pct',
    'legs',
  ],
  pilot_access: ['user_id', 'granted_at', 'expires_at'],
  promotions: [
    'id',
    'connection_id',
    'partner_name',
    'title',
    'description',
    'promotional_value',
    'bonus_description',
    'referral_url',
    'icon',
    'theme',
    'steps',
    'validations',
    'created_at',
  ],
  promotion_invitations: ['promotion_id', 'user_id', 'invited_at'],
  promotion_claims: ['id', 'promotion_id', 'connection_id', 'user_id', 'uid', 'claimed_at', 'grant_id'],
  campaigns: [
    'id',
    'url',
    'video_url',
    'web_banner_video_position',
    'registration_close',
    'exchange_icon_url',
    'exchange_icon_alt',
    'prize_amount',
    'prize_banner_label',
    'prize_icon_url',
    'created_at',
  ],
  oauth_clients: [
    'id',
    'secret_hash',
    'name',
    'redirect_uris',
    'token_endpoint_auth_method',
    'metadata',
    'created_at',
    'registered_from',
  ],
  oauth_codes: [
    'code_hash',
    'client_id',
    'user_id',
    'session_id',
    'redirect_uri',
    'code_challenge',
    'resource',
    'scope',
    'created_at',
    'expires_at',
  ],
  oauth_tokens: [
    'token_hash',
    'kind',
    'family_id',
    'client_id',
    'user_id',
    'session_id',
    'resource',
    'scope',
    'created_at',
    'expires_at',
    'used_at',
    'revoked_at',
  ],
  account_mails: ['id', 'user_id', 'kind', 'token_hash', 'email', 'created_at', 'expires_at'],
} as const satisfies { [T in keyof Schema]?: readonly (keyof Schema[T])[] };

/** The fields of `record` that are columns of `table` (see {@link COLUMNS}). */
export function columnsOf<T extends keyof typeof COLUMNS, R extends { [K in (typeof COLUMNS)[T][number]]?: unknown }>(
  table: T,
  record: R,
): Pick<R, (typeof COLUMNS)[T][number]> {
  const out: Partial<R> = {};
  for (const c of COLUMNS[table] as readonly (keyof R)[]) out[c] = record[c];
  return out as Pick<R, (typeof COLUMNS)[T][number]>;
}
