import type Database from 'better-sqlite3';
import type {
  CodeRedemption,
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthRepository,
  OAuthTokenRecord,
  RefreshLookup,
} from '../oauth-types.js';

type DB = Database.Database;

interface ClientRow {
  id: string;
  secret_hash: string | null;
  name: string | null;
  redirect_uris: string;
  token_endpoint_auth_method: OAuthClientRecord['token_endpoint_auth_method'];
  metadata: string;
  created_at: number;
  authorized_at: number | null;
}

const clientOf = ({ authorized_at: _, ...r }: ClientRow): OAuthClientRecord => ({
  ...r,
  redirect_uris: JSON.parse(r.redirect_uris) as string[],
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
});

interface CodeRow extends OAuthCodeRecord {
  used_at: number | null;
  family_id: string | null;
}

/** The OAuth repository over SQLite (tables of migration 8). */
export function oauth(db: DB): OAuthRepository {
  const insertClient = db.prepare(
    `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, token_endpoint_auth_method, metadata, created_at)
     VALUES (@id, @secret_hash, @name, @redirect_uris, @token_endpoint_auth_method, @metadata, @created_at)`,
  );
  const clientById = db.prepare('SELECT * FROM oauth_clients WHERE id = ?');
  const deleteUnused = db.prepare('DELETE FROM oauth_clients WHERE authorized_at IS NULL AND created_at < ?');
  const countClients = db.prepare('SELECT COUNT(*) AS n FROM oauth_clients');
  const evictUnused = db.prepare(
    `DELETE FROM oauth_clients WHERE id IN
       (SELECT id FROM oauth_clients WHERE authorized_at IS NULL ORDER BY created_at LIMIT ?)`,
  );
  const markAuthorized = db.prepare(
    'UPDATE oauth_clients SET authorized_at = @created_at WHERE id = @client_id AND authorized_at IS NULL',
  );
  const insertCode = db.prepare(
    `INSERT INTO oauth_codes (code_hash, client_id, user_id, session_id, redirect_uri, code_challenge, resource, scope, created_at, expires_at)
     VALUES (@code_hash, @client_id, @user_id, @session_id, @redirect_uri, @code_challenge, @resource, @scope, @created_at, @expires_at)`,
  );
  const codeByHash = db.prepare('SELECT * FROM oauth_codes WHERE code_hash = ?');
  const markCodeUsed = db.prepare(
    'UPDATE oauth_codes SET used_at = @now, family_id = @family, expires_at = MAX(expires_at, @keep) WHERE code_hash = @hash',
  );
  const insertToken = db.prepare(
    `INSERT INTO oauth_tokens (token_hash, kind, family_id, client_id, user_id, session_id, resource, scope, created_at, expires_at, used_at, revoked_at)
     VALUES (@token_hash, @kind, @family_id, @client_id, @user_id, @session_id, @resource, @scope, @created_at, @expires_at, @used_at, @revoked_at)`,
  );
  // A token is live only while the session it was issued under exists and has not expired.
  const liveToken = db.prepare(
    `SELECT t.* FROM oauth_tokens t JOIN sessions s ON s.id = t.session_id
     WHERE t.token_hash = ? AND t.kind = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND s.expires_at > ?`,
  );
  const tokenByHash = db.prepare('SELECT * FROM oauth_tokens WHERE token_hash = ? AND client_id = ?');
  const markUsed = db.prepare('UPDATE oauth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL');
  const revokeFamily = db.prepare('UPDATE oauth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL');
  const sessionLive = db.prepare('SELECT 1 AS ok FROM sessions WHERE id = ? AND expires_at > ?');
  const deleteCodes = db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?');
  const deleteTokens = db.prepare('DELETE FROM oauth_tokens WHERE expires_at <= ?');

  const clientRow = (c: OAuthClientRecord) => ({
    ...c,
    redirect_uris: JSON.stringify(c.redirect_uris),
    metadata: JSON.stringify(c.metadata),
  });
  const createBounded = db.transaction(
    (c: OAuthClientRecord, bound: { max: number; unusedBefore: number }): boolean => {
      deleteUnused.run(bound.unusedBefore);
      const { n } = countClients.get() as { n: number };
      if (n >= bound.max) evictUnused.run(n - bound.max + 1);
      if ((countClients.get() as { n: number }).n >= bound.max) return false;
      insertClient.run(clientRow(c));
      return true;
    },
  );
  const storeCode = db.transaction((code: OAuthCodeRecord) => {
    insertCode.run(code);
    markAuthorized.run(code);
  });

  const createTokens = db.transaction((tokens: readonly OAuthTokenRecord[]) => {
    for (const t of tokens) insertToken.run(t);
  });

  const useCode = db.transaction(
    (hash: string, now: number, keepUntil: number, tokens: readonly OAuthTokenRecord[]) => {
      markCodeUsed.run({ now, family: tokens[0]?.family_id ?? null, keep: keepUntil, hash });
      createTokens(tokens);
    },
  );
  // Synchronous from the read to the write, so no other request's redemption runs in between.
  const redeem = (
    hash: string,
    now: number,
    keepUntil: number,
    issue: (code: OAuthCodeRecord) => readonly OAuthTokenRecord[],
  ): CodeRedemption => {
    const row = codeByHash.get(hash) as CodeRow | undefined;
    if (!row) return { status: 'invalid' };
    if (row.used_at !== null) {
      if (row.family_id !== null) revokeFamily.run(now, row.family_id);
      return { status: 'replayed' };
    }
    if (row.expires_at <= now) return { status: 'invalid' };
    const { used_at: _, family_id: __, ...code } = row;
    if (sessionLive.get(code.session_id, now) === undefined) {
      useCode(hash, now, keepUntil, []);
      return { status: 'ended' };
    }
    let tokens: readonly OAuthTokenRecord[];
    try {
      tokens = issue(code);
    } catch (err) {
      useCode(hash, now, keepUntil, []);
      throw err;
    }
    useCode(hash, now, keepUntil, tokens);
    return { status: 'valid', code };
  };

  const rotate = db.transaction(
    (
      hash: string,
      clientId: string,
      now: number,
      next: (old: OAuthTokenRecord) => readonly OAuthTokenRecord[],
    ): RefreshLookup => {
      const any = tokenByHash.get(hash, clientId) as OAuthTokenRecord | undefined;
      if (any?.kind !== 'refresh') return { status: 'invalid' };
      if (any.used_at !== null) {
        // RFC 9700 4.14.2: a rotated refresh token presented again means it leaked; end the family.
        revokeFamily.run(now, any.family_id);
        return { status: 'reused' };
      }
      const live = liveToken.get(hash, 'refresh', now, now) as OAuthTokenRecord | undefined;
      if (!live) return { status: 'invalid' };
      markUsed.run(now, hash);
      createTokens(next(live));
      return { status: 'valid', token: live };
    },
  );

  return {
    createClient: async (c) => {
      insertClient.run(clientRow(c));
    },
    createClientBounded: async (c, bound) => createBounded(c, bound),
    deleteUnusedClients: async (before) => deleteUnused.run(before).changes,
    clientById: async (id) => {
      const row = clientById.get(id) as ClientRow | undefined;
      return row ? clientOf(row) : null;
    },
    createCode: async (code) => {
      storeCode(code);
    },
    redeemCode: async (hash, now, keepUntil, issue) => redeem(hash, now, keepUntil, issue),
    createTokens: async (tokens) => {
      createTokens(tokens);
    },
    liveAccessToken: async (hash, now) =>
      (liveToken.get(hash, 'access', now, now) as OAuthTokenRecord | undefined) ?? null,
    rotateRefresh: async (hash, clientId, now, next) => rotate(hash, clientId, now, next),
    revokeFamilyOf: async (hash, clientId, now) => {
      const t = tokenByHash.get(hash, clientId) as OAuthTokenRecord | undefined;
      if (!t) return false;
      revokeFamily.run(now, t.family_id);
      return true;
    },
    sessionLive: async (id, now) => sessionLive.get(id, now) !== undefined,
    deleteExpired: async (now) => deleteCodes.run(now).changes + deleteTokens.run(now).changes,
  };
}
