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
];
