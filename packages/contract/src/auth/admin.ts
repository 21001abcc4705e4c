import { z } from 'zod';
import { API_KEY_MAX_EXPIRES_DAYS } from '../keys/api-keys.js';
import { TIERS } from '../tiers.js';

/**
 * The operator's operations (`marketlens admin ...`): their inputs and what they answer. They are
 * served neither over REST nor over MCP, so nothing here is published in the OpenAPI document; times
 * are epoch milliseconds, as the admin commands' JSON (version 1) has always printed them.
 */

/** Longest tier grant or pilot grant an operator gives, in days (ten years). */
export const ADMIN_GRANT_MAX_DAYS = 3650;

const ms = z.number().int();
const Tier = z.enum(TIERS);
const Days = z.number().int().min(1).max(ADMIN_GRANT_MAX_DAYS);

/** A user as the operator names one: by email (any case) or by id. */
export const AdminUserRef = z.object({ user: z.string().trim().min(1).max(320) });

/** A user as the operator sees it: never the password hash. */
export const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** The base tier an operator set. */
  tier: Tier,
  /** The tier in force now (a grant may raise it). */
  effective_tier: Tier,
  /** The grant that raises it, with its expiry, or null. */
  grant: z.object({ tier: Tier, source: z.string(), expires_at: ms }).nullable(),
  created_at: ms,
  /** When an operator disabled the account, or null. */
  disabled_at: ms.nullable(),
});
export type AdminUser = z.output<typeof AdminUserSchema>;

/** `admin.setTier`: a user's base tier. */
export const AdminSetTierInput = AdminUserRef.extend({ tier: Tier });

/** `admin.grantTier`: a tier for some days, and why (a promotion, an affiliate, a courtesy). */
export const AdminGrantTierInput = AdminUserRef.extend({
  tier: Tier,
  days: Days,
  source: z.enum(['promotion', 'affiliate', 'admin']).default('admin'),
});

/** An API key as the operator sees it: never its hash. */
export const AdminApiKeySchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  created_at: ms,
  expires_at: ms.nullable(),
  revoked_at: ms.nullable(),
  last_used_at: ms.nullable(),
});
export type AdminApiKey = z.output<typeof AdminApiKeySchema>;

const Owner = { user_id: z.string(), email: z.string() };

/** `admin.apiKeys`: a user's API keys, revoked ones included (their records stay for audit). */
export const AdminApiKeysSchema = z.object({ ...Owner, keys: z.array(AdminApiKeySchema) });

/** `admin.createApiKey`: a key for a user, expiring after some days or never (null). */
export const AdminCreateApiKeyInput = AdminUserRef.extend({
  expires_in_days: z.number().int().min(1).max(API_KEY_MAX_EXPIRES_DAYS).nullable().default(null),
});

/** The key made, shown this once (it is stored only as a hash). */
export const AdminCreatedApiKeySchema = z.object({ ...Owner, key: z.string(), api_key: AdminApiKeySchema });

/** `admin.revokeApiKey`: one key of a user, by its id. */
export const AdminRevokeApiKeyInput = AdminUserRef.extend({ key_id: z.string().min(1).max(128) });

/** The key revoked, with its revocation time. */
export const AdminRevokedApiKeySchema = z.object({ ...Owner, api_key: AdminApiKeySchema });

/** `admin.grantPilot`: let a user spectate the pilot for some days whatever their affiliate volume. */
export const AdminGrantPilotInput = AdminUserRef.extend({ days: Days });

/** A pilot grant in force. */
export const AdminPilotAccessSchema = z.object({ ...Owner, granted_at: ms, expires_at: ms });

/** `admin.revokePilot`: whether a grant was in force (and so ended). */
export const AdminPilotRevokedSchema = z.object({ ...Owner, revoked: z.boolean() });

/** `admin.revokeSessions`: how many sessions of the user ended. */
export const AdminSessionsRevokedSchema = z.object({ ...Owner, sessions: z.number().int() });

/** `admin.deleteUser`: the user deleted. */
export const AdminUserDeletedSchema = z.object(Owner);

/** `admin.disableUser` and `admin.enableUser`: what changed (nothing when it already was so). */
export const AdminUserStatusSchema = z.object({
  ...Owner,
  disabled_at: ms.nullable(),
  changed: z.boolean(),
  sessions: z.number().int(),
  oauth_tokens: z.number().int(),
});

/** An OAuth client (an MCP app) as the operator sees it: never its secret's hash. */
export const AdminOAuthClientSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(['none', 'client_secret_post', 'client_secret_basic']),
  created_at: ms,
  /** The address group it registered from (null for older rows). */
  registered_from: z.string().nullable(),
  /** When it first completed an authorization, or null. */
  authorized_at: ms.nullable(),
  /** The account that approved it first, or null. */
  approved_by: z.string().nullable(),
  /** Its unexpired, unrevoked tokens now. */
  live_tokens: z.number().int(),
  /** Whether it holds a secret (a confidential client). */
  confidential: z.boolean(),
});

/** `admin.removeOAuthClient`: one client, by its id. */
export const AdminOAuthClientRef = z.object({ client_id: z.string().trim().min(1).max(256) });

/** The client removed, with its codes and tokens. */
export const AdminOAuthClientRemovedSchema = z.object({ client_id: z.string(), removed: z.literal(true) });
