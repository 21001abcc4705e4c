/** One schema step. Versions are applied in order, each in its own transaction, exactly once. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append only: never edit a migration that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        tier TEXT NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'pro', 'elite')),
        created_at INTEGER NOT NULL
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE TABLE tier_grants (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tier TEXT NOT NULL CHECK (tier IN ('free', 'pro', 'elite')),
        source TEXT NOT NULL,
        granted_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX tier_grants_user ON tier_grants(user_id, expires_at);
      CREATE TABLE favorites (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, asset_id)
      );
    `,
  },
  {
    version: 2,
    name: 'api_keys',
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT,
        prefix TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        last_used_at INTEGER
      );
      CREATE INDEX api_keys_user ON api_keys(user_id);
      CREATE TABLE api_usage (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (user_id, day)
      );
    `,
  },
  {
    version: 3,
    name: 'favorites_popularity',
    // The favorites table shipped with version 1; this only makes sure it exists (a no-op then)
    // and indexes it by asset for the popularity count of GET /v2/assets/popular.
    sql: `
      CREATE TABLE IF NOT EXISTS favorites (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, asset_id)
      );
      CREATE INDEX IF NOT EXISTS favorites_asset ON favorites(asset_id);
    `,
  },
  {
    version: 4,
    name: 'connections_and_sync',
    // Connected exchange accounts and what their sync reads. Positions keep a stable id while open
    // (at most one open row per (connection, pair, side, market type)); fills are unique per venue
    // trade id and connection so re-reading a window never duplicates.
    sql: `
      CREATE TABLE user_connections (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        venue TEXT NOT NULL,
        label TEXT,
        credentials TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_sync_at INTEGER,
        last_success_at INTEGER,
        last_error TEXT,
        failures INTEGER NOT NULL DEFAULT 0,
        next_sync_at INTEGER NOT NULL,
        fills_synced_until INTEGER,
        fills_cursor TEXT,
        fills_cursor_since INTEGER,
        fills_cursor_until INTEGER,
        protective_levels_synced_at INTEGER
      );
      CREATE INDEX user_connections_user ON user_connections(user_id, created_at);
      CREATE INDEX user_connections_due ON user_connections(next_sync_at);
      CREATE TABLE positions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        user_connection_id TEXT NOT NULL REFERENCES user_connections(id) ON DELETE CASCADE,
        venue TEXT NOT NULL,
        pair TEXT NOT NULL,
        asset_id TEXT,
        market_type TEXT NOT NULL CHECK (market_type IN ('spot', 'derivatives')),
        side TEXT NOT NULL CHECK (side IN ('long', 'short')),
        size REAL NOT NULL,
        entry_price REAL NOT NULL,
        mark_price REAL,
        margin REAL,
        leverage REAL,
        liquidation_price REAL,
        unrealized_pnl REAL,
        settle TEXT,
        contract_type TEXT NOT NULL DEFAULT 'linear' CHECK (contract_type IN ('linear', 'inverse')),
        maintenance_margin REAL,
        opened_at INTEGER,
        updated_at INTEGER NOT NULL,
        stop_loss REAL,
        take_profit REAL,
        protective_levels_synced_at INTEGER,
        funding_since_open REAL,
        notes TEXT NOT NULL DEFAULT '',
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        closed_at INTEGER
      );
      CREATE UNIQUE INDEX positions_open_key ON positions(user_connection_id, pair, side, market_type)
        WHERE closed_at IS NULL;
      CREATE INDEX positions_user ON positions(user_id, closed_at);
      CREATE TABLE balances (
        user_connection_id TEXT NOT NULL REFERENCES user_connections(id) ON DELETE CASCADE,
        symbol TEXT NOT NULL,
        account TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        venue TEXT NOT NULL,
        asset_id TEXT,
        total REAL NOT NULL,
        free REAL,
        used REAL,
        synced_at INTEGER NOT NULL,
        PRIMARY KEY (user_connection_id, symbol, account)
      );
      CREATE INDEX balances_user ON balances(user_id);
      CREATE TABLE fills (
        external_id TEXT NOT NULL,
        user_connection_id TEXT NOT NULL REFERENCES user_connections(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        venue TEXT NOT NULL,
        order_id TEXT,
        pair TEXT NOT NULL,
        asset_id TEXT,
        market_type TEXT NOT NULL CHECK (market_type IN ('spot', 'derivatives')),
        side TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
        price REAL NOT NULL,
        amount REAL NOT NULL,
        fee REAL,
        fee_currency TEXT,
        realized_pnl REAL,
        time INTEGER NOT NULL,
        synced_at INTEGER NOT NULL,
        PRIMARY KEY (external_id, user_connection_id)
      );
      CREATE INDEX fills_user_time ON fills(user_id, time DESC);
      CREATE INDEX fills_connection_time ON fills(user_connection_id, time);
    `,
  },
  {
    version: 5,
    name: 'alerts_and_push',
    // Alerts; Web Push subscriptions (one row per endpoint); the push outbox, one row per
    // (trigger key, device), written in the transaction that fires the trigger; push settings
    // (the generated VAPID keys, scheduler marks); per-user notification preferences.
    sql: `
      CREATE TABLE push_devices (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        endpoint TEXT NOT NULL UNIQUE,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        name TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        active INTEGER NOT NULL DEFAULT 1,
        deactivated_at INTEGER,
        deactivated_reason TEXT
      );
      CREATE INDEX push_devices_user ON push_devices(user_id, active);
      CREATE TABLE alerts (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        asset_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('price', 'zone', 'breakout', 'rsi', 'smart_zone', 'percent_change')),
        timeframe TEXT,
        evaluates_as TEXT,
        target REAL NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('above', 'below')),
        zone_low REAL,
        zone_high REAL,
        reference REAL,
        status TEXT NOT NULL CHECK (status IN ('active', 'triggered', 'expired', 'disabled')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        armed_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        triggered_at INTEGER,
        trigger_value REAL,
        trigger_candle INTEGER,
        last_evaluated_open INTEGER
      );
      CREATE INDEX alerts_user ON alerts(user_id, created_at);
      CREATE INDEX alerts_status ON alerts(status, asset_id);
      CREATE TABLE push_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key TEXT NOT NULL,
        device_id TEXT NOT NULL REFERENCES push_devices(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        category TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        delivered_at INTEGER,
        dropped_at INTEGER,
        last_error TEXT,
        UNIQUE (idempotency_key, device_id)
      );
      CREATE INDEX push_outbox_pending ON push_outbox(next_attempt_at) WHERE delivered_at IS NULL AND dropped_at IS NULL;
      CREATE INDEX push_outbox_device ON push_outbox(device_id);
      CREATE TABLE push_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE notification_preferences (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        pilot_trade_notification_disabled INTEGER NOT NULL DEFAULT 0,
        regime_notification_disabled INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'published_plans_and_pilot',
    // Every plan the service published, once per (asset, timeframe, candle it was computed on), with
    // its outcome so far; the pilot's decisions on them, its trades and its run state.
    sql: `
      CREATE TABLE published_plans (
        id TEXT PRIMARY KEY,
        asset_id TEXT NOT NULL,
        timeframe TEXT NOT NULL,
        candle_time INTEGER NOT NULL,
        published_at INTEGER NOT NULL,
        venue TEXT NOT NULL,
        pair TEXT NOT NULL,
        market_type TEXT NOT NULL CHECK (market_type IN ('spot', 'derivatives')),
        side TEXT NOT NULL CHECK (side IN ('long', 'short')),
        confidence REAL NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('analysis', 'publisher')),
        plan TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'entered', 'tp_hit', 'stopped_out', 'time_stopped', 'expired')),
        entered_at INTEGER,
        fill_price REAL,
        closed_at INTEGER,
        targets_hit INTEGER NOT NULL DEFAULT 0,
        realized_r REAL,
        return_pct REAL,
        legs TEXT NOT NULL DEFAULT '[]',
        reason TEXT,
        updated_at INTEGER NOT NULL,
        UNIQUE (asset_id, timeframe, candle_time)
      );
      CREATE INDEX published_plans_open ON published_plans(outcome, published_at) WHERE outcome IN ('pending', 'entered');
      CREATE INDEX published_plans_asset ON published_plans(asset_id, timeframe, published_at);
      CREATE TABLE pilot_decisions (
        plan_id TEXT PRIMARY KEY REFERENCES published_plans(id) ON DELETE CASCADE,
        decision TEXT NOT NULL CHECK (decision IN ('taken', 'skipped')),
        reason TEXT,
        decided_at INTEGER NOT NULL
      );
      CREATE TABLE pilot_trades (
        id TEXT PRIMARY KEY,
        trade_index INTEGER NOT NULL UNIQUE,
        plan_id TEXT NOT NULL UNIQUE REFERENCES published_plans(id),
        asset_id TEXT NOT NULL,
        timeframe TEXT NOT NULL,
        pair TEXT NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('long', 'short')),
        opened_at INTEGER NOT NULL,
        entry_price REAL NOT NULL,
        stop_loss REAL NOT NULL,
        take_profits TEXT NOT NULL,
        quantity REAL NOT NULL,
        notional_usd REAL NOT NULL,
        margin_usd REAL NOT NULL,
        leverage REAL NOT NULL,
        risk_usd REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
        outcome TEXT NOT NULL,
        closed_at INTEGER,
        exit_price REAL,
        realized_r REAL,
        pnl_usd REAL,
        return_on_margin_pct REAL,
        legs TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX pilot_trades_status ON pilot_trades(status, trade_index);
      CREATE TABLE pilot_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        started_at INTEGER NOT NULL,
        last_active_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'promotions',
    // Affiliate promotions (at most one per exchange), the accounts invited to them, their claims
    // (one per user and promotion; a venue UID claims once per exchange, across users) and campaign
    // banners. The tier_grants index serves the affiliate-Elite lookup of the volume standing.
    sql: `
      CREATE TABLE promotions (
        id TEXT PRIMARY KEY,
        connection_id TEXT NOT NULL UNIQUE,
        partner_name TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        promotional_value TEXT NOT NULL,
        bonus_description TEXT NOT NULL,
        referral_url TEXT NOT NULL,
        icon TEXT NOT NULL,
        theme TEXT NOT NULL,
        steps TEXT NOT NULL,
        validations TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE promotion_invitations (
        promotion_id TEXT NOT NULL REFERENCES promotions(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        invited_at INTEGER NOT NULL,
        PRIMARY KEY (promotion_id, user_id)
      );
      CREATE TABLE promotion_claims (
        id TEXT PRIMARY KEY,
        promotion_id TEXT NOT NULL REFERENCES promotions(id) ON DELETE CASCADE,
        connection_id TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        uid TEXT NOT NULL,
        claimed_at INTEGER NOT NULL,
        grant_id TEXT NOT NULL REFERENCES tier_grants(id),
        UNIQUE (promotion_id, user_id),
        UNIQUE (connection_id, uid)
      );
      CREATE INDEX promotion_claims_user ON promotion_claims(user_id);
      CREATE TABLE campaigns (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        video_url TEXT NOT NULL,
        web_banner_video_position TEXT NOT NULL,
        registration_close INTEGER NOT NULL,
        exchange_icon_url TEXT NOT NULL,
        exchange_icon_alt TEXT NOT NULL,
        prize_amount TEXT,
        prize_banner_label TEXT,
        prize_icon_url TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX campaigns_close ON campaigns(registration_close);
      CREATE INDEX tier_grants_source ON tier_grants(user_id, source, tier, expires_at);
    `,
  },
  {
    version: 8,
    name: 'oauth',
    // The OAuth 2.1 authorization server of /mcp: registered clients, authorization codes, access and
    // refresh tokens, all secrets hashed. Codes and tokens name the session they were issued under
    // (no foreign key: a logout deletes the session row and the join in the token check fails).
    sql: `
      CREATE TABLE oauth_clients (
        id TEXT PRIMARY KEY,
        secret_hash TEXT,
        name TEXT,
        redirect_uris TEXT NOT NULL,
        token_endpoint_auth_method TEXT NOT NULL
          CHECK (token_endpoint_auth_method IN ('none', 'client_secret_post', 'client_secret_basic')),
        metadata TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE oauth_codes (
        code_hash TEXT PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        session_id TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        code_challenge TEXT NOT NULL,
        resource TEXT NOT NULL,
        scope TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE oauth_tokens (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
        family_id TEXT NOT NULL,
        client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        session_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        scope TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX oauth_tokens_family ON oauth_tokens(family_id);
      CREATE INDEX oauth_tokens_session ON oauth_tokens(session_id);
      CREATE INDEX oauth_tokens_expiry ON oauth_tokens(expires_at);
    `,
  },
  {
    version: 9,
    name: 'candle_store',
    // Candles of real market sources, one row per (source, instrument, timeframe): the series as six
    // Float64 columns in one blob (48 bytes a candle), read and written whole. `used_at` orders the
    // least recently used series for eviction when the store outgrows its bound.
    sql: `
      CREATE TABLE candle_series (
        source TEXT NOT NULL,
        instrument TEXT NOT NULL,
        timeframe TEXT NOT NULL,
        venue TEXT NOT NULL,
        pair TEXT NOT NULL,
        market_type TEXT NOT NULL CHECK (market_type IN ('spot', 'derivatives')),
        rows INTEGER NOT NULL,
        candles BLOB NOT NULL,
        bytes INTEGER NOT NULL,
        complete INTEGER NOT NULL,
        fetched_at INTEGER NOT NULL,
        used_at INTEGER NOT NULL,
        PRIMARY KEY (source, instrument, timeframe)
      );
      CREATE INDEX candle_series_used ON candle_series(used_at);
    `,
  },
  {
    version: 10,
    name: 'oauth_client_use',
    // When a client first completed an authorization (a code was issued to it): clients that never
    // did are dropped after a day and evicted first when the table is full. Clients with codes or
    // tokens already count as used.
    sql: `
      ALTER TABLE oauth_clients ADD COLUMN authorized_at INTEGER;
      UPDATE oauth_clients SET authorized_at = created_at
        WHERE id IN (SELECT client_id FROM oauth_codes UNION SELECT client_id FROM oauth_tokens);
      CREATE INDEX oauth_clients_unused ON oauth_clients(authorized_at, created_at);
    `,
  },
  {
    version: 11,
    name: 'oauth_code_redemption',
    // A redeemed code is kept (marked used, with the family of the tokens it issued) instead of
    // deleted, so that presenting it again revokes those tokens.
    sql: `
      ALTER TABLE oauth_codes ADD COLUMN used_at INTEGER;
      ALTER TABLE oauth_codes ADD COLUMN family_id TEXT;
    `,
  },
  {
    version: 12,
    name: 'pilot_access',
    // Pilot access granted by an operator (`marketlens admin pilot grant`), beside the affiliate
    // volume that otherwise qualifies a user; a grant ends at expires_at or when revoked (deleted).
    sql: `
      CREATE TABLE pilot_access (
        user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        granted_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 13,
    name: 'email_verification',
    // When a user proved the address (null: not yet; accounts made before this version too). Mails
    // sent to an account are kept a day for the per-account mail limit; a verification mail holds
    // the hash of its single-use link token.
    sql: `
      ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
      CREATE TABLE account_mails (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('verify', 'signup_attempt')),
        token_hash TEXT UNIQUE,
        email TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX account_mails_user ON account_mails(user_id, created_at);
      CREATE INDEX account_mails_created ON account_mails(created_at);
    `,
  },
  {
    version: 14,
    name: 'alert_webhooks',
    // Signed webhooks, a delivery channel beside push devices (for users without a browser). The
    // secret is encrypted with the credentials key. The scheduler stages a firing's notice before it
    // marks the alert triggered; the trigger below copies it to the outbox, one row per active
    // webhook of the owner, inside the statement that fires the alert, so the firing and its
    // deliveries commit together (as push rows do) without the alert storage knowing of webhooks.
    sql: `
      CREATE TABLE alert_webhooks (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        name TEXT,
        secret TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        active INTEGER NOT NULL DEFAULT 1,
        deactivated_at INTEGER,
        deactivated_reason TEXT,
        UNIQUE (user_id, url)
      );
      CREATE INDEX alert_webhooks_user ON alert_webhooks(user_id, active);
      CREATE TABLE webhook_notices (
        alert_id TEXT NOT NULL,
        armed_at INTEGER NOT NULL,
        trigger_candle INTEGER NOT NULL,
        idempotency_key TEXT NOT NULL,
        category TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (alert_id, armed_at, trigger_candle)
      );
      CREATE INDEX webhook_notices_created ON webhook_notices(created_at);
      CREATE TABLE webhook_outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key TEXT NOT NULL,
        webhook_id TEXT NOT NULL REFERENCES alert_webhooks(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        category TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        delivered_at INTEGER,
        dropped_at INTEGER,
        last_error TEXT,
        UNIQUE (idempotency_key, webhook_id)
      );
      CREATE INDEX webhook_outbox_pending ON webhook_outbox(next_attempt_at)
        WHERE delivered_at IS NULL AND dropped_at IS NULL;
      CREATE INDEX webhook_outbox_webhook ON webhook_outbox(webhook_id);
      CREATE TRIGGER alert_webhook_fan_out AFTER UPDATE OF status ON alerts
        WHEN OLD.status = 'active' AND NEW.status = 'triggered' AND NEW.trigger_candle IS NOT NULL
      BEGIN
        INSERT OR IGNORE INTO webhook_outbox
          (idempotency_key, webhook_id, user_id, category, payload, created_at, next_attempt_at)
          SELECT n.idempotency_key, w.id, w.user_id, n.category, n.payload, NEW.updated_at, NEW.updated_at
          FROM webhook_notices n JOIN alert_webhooks w ON w.user_id = NEW.user_id AND w.active = 1
          WHERE n.alert_id = NEW.id AND n.armed_at = NEW.armed_at AND n.trigger_candle = NEW.trigger_candle;
        DELETE FROM webhook_notices WHERE alert_id = NEW.id;
      END;
    `,
  },
];
