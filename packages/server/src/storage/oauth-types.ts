/**
 * OAuth 2.1 authorization-server records (`/oauth/*`, the bearer tokens of `/mcp`). Secrets (client
 * secrets, codes, tokens) are stored only as hashes. Every code and token is bound to the login
 * session it was issued under: when that session ends (logout, expiry) they stop working.
 * Times are epoch ms.
 */

/** A client registered with RFC 7591 dynamic client registration. */
export interface OAuthClientRecord {
  id: string;
  /** Null for a public client (`token_endpoint_auth_method: none`). */
  secret_hash: string | null;
  name: string | null;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
  /** The registration as the client sent it, echoed in the registration response. */
  metadata: Record<string, unknown>;
  created_at: number;
  /** The client address group (an IPv4 address, an IPv6 prefix) it was registered from; null for older rows. */
  registered_from?: string | null;
}

/** A client as the operator's listing shows it: the record, and who approved it when. */
export interface OAuthClientView extends OAuthClientRecord {
  /** When it first completed an authorization (null: never approved). */
  authorized_at: number | null;
  /** The account that approved it first (null: never approved). */
  approved_by: string | null;
  /** Its tokens that are unexpired and unrevoked at the listing's `now`. */
  live_tokens: number;
}

/** The bounds a registration is kept within ({@link OAuthRepository.createClientBounded}). */
export interface ClientBounds {
  /** Clients in all, at most. */
  max: number;
  /** Clients that never completed an authorization and were registered before this go. */
  unusedBefore: number;
  /** Approved clients without a live token whose approval is older than this go. */
  idleBefore: number;
  /** Unapproved clients one address group holds at most (the registration is refused past it). */
  perAddress: number;
  /** Now: which tokens are live. */
  now: number;
}

/** An authorization code: single use, short-lived. */
export interface OAuthCodeRecord {
  code_hash: string;
  client_id: string;
  user_id: string;
  session_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge. */
  code_challenge: string;
  /** RFC 8707 resource: the audience of the tokens it yields. */
  resource: string;
  scope: string | null;
  created_at: number;
  expires_at: number;
}

export type OAuthTokenKind = 'access' | 'refresh';

/** An access or refresh token. A refresh and the access tokens issued with it share a `family_id`. */
export interface OAuthTokenRecord {
  token_hash: string;
  kind: OAuthTokenKind;
  family_id: string;
  client_id: string;
  user_id: string;
  session_id: string;
  /** Audience (RFC 8707). */
  resource: string;
  scope: string | null;
  created_at: number;
  expires_at: number;
  /** A refresh token that was exchanged (rotated); presenting it again is reuse. */
  used_at: number | null;
  revoked_at: number | null;
}

/** What presenting a refresh token found. */
export type RefreshLookup =
  | { status: 'valid'; token: OAuthTokenRecord }
  /** Already rotated: the whole family has now been revoked (reuse detection). */
  | { status: 'reused' }
  /** Unknown, expired, revoked, or its session ended. */
  | { status: 'invalid' };

/** What presenting an authorization code found. */
export type CodeRedemption =
  | { status: 'valid'; code: OAuthCodeRecord }
  /** Redeemed before: the tokens issued from it (and their refreshed successors) are now revoked. */
  | { status: 'replayed' }
  /** Unknown or expired. */
  | { status: 'invalid' }
  /** The login session it was issued under has ended. */
  | { status: 'ended' };

export interface OAuthRepository {
  createClient(client: OAuthClientRecord): Promise<void>;
  /**
   * Registers a client within a bound, in one transaction: clients that never completed an
   * authorization and were registered before `unusedBefore` are dropped; when `max` clients remain,
   * the oldest unused ones are evicted to make room. False (nothing stored) when all `max` are in use.
   */
  createClientBounded(client: OAuthClientRecord, bound: ClientBounds): Promise<'stored' | 'full' | 'address'>;
  /** Drops the clients that never completed an authorization and were registered before `before`. */
  deleteUnusedClients(before: number): Promise<number>;
  /**
   * Drops the clients approved before `idleBefore` that hold no live token (unexpired, unrevoked)
   * at `now`: an approval lapses when nothing has used it for that long.
   */
  deleteIdleClients(idleBefore: number, now: number): Promise<number>;
  /** Every stored client, oldest first, with its approval and live tokens (the operator's listing). */
  listClients(now: number): Promise<OAuthClientView[]>;
  /** Removes a client with its codes and tokens; false when unknown. */
  deleteClient(id: string): Promise<boolean>;
  /** Revokes every token of the user (a password reset, an account deletion). */
  revokeUserTokens(userId: string, now: number): Promise<number>;
  clientById(id: string): Promise<OAuthClientRecord | null>;
  /**
   * Stores a code; its client counts as approved (it completed an authorization) from then on, by
   * the code's user when it was not approved before. When that user has now approved more than
   * `perAccount` stored clients, the ones they approved longest ago are removed (with their
   * tokens), so one account never holds more than `perAccount` of the store.
   */
  createCode(code: OAuthCodeRecord, perAccount?: number): Promise<void>;
  /**
   * Redeems a code once: when it is valid, stores the tokens `issue` returns and keeps the code,
   * marked used, until `keepUntil`; presented again, it revokes the families of those tokens. The
   * code is used up also when `issue` throws (a wrong verifier), and then issues nothing.
   */
  redeemCode(
    codeHash: string,
    now: number,
    keepUntil: number,
    issue: (code: OAuthCodeRecord) => readonly OAuthTokenRecord[],
  ): Promise<CodeRedemption>;
  createTokens(tokens: readonly OAuthTokenRecord[]): Promise<void>;
  /** The access token, when it is unexpired, unrevoked and its session is still live. */
  liveAccessToken(tokenHash: string, now: number): Promise<OAuthTokenRecord | null>;
  /**
   * Rotates a refresh token atomically: marks it used and stores `next` (same family) when it is
   * valid; when it was used before, revokes its family. An error thrown by `next` undoes the rotation.
   */
  rotateRefresh(
    tokenHash: string,
    clientId: string,
    now: number,
    next: (old: OAuthTokenRecord) => readonly OAuthTokenRecord[],
  ): Promise<RefreshLookup>;
  /** Revokes the family of a token (access or refresh) of the client; false when unknown. */
  revokeFamilyOf(tokenHash: string, clientId: string, now: number): Promise<boolean>;
  /** Whether the login session exists and has not expired (codes and tokens are bound to it). */
  sessionLive(sessionId: string, now: number): Promise<boolean>;
  /** Drops expired codes and tokens. */
  deleteExpired(now: number): Promise<number>;
}
