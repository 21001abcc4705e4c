import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  API_KEY_MAX_EXPIRES_DAYS,
  type ApiKeyRecord,
  AppError,
  createApiKey,
  createStorage,
  DEMO_PILOT_DAYS,
  disableUser,
  enableUser,
  grantPilotAccess,
  grantUserTier,
  isKeyActive,
  MAX_ACTIVE_API_KEYS,
  openDataDir,
  optionsFromEnv,
  PILOT_GRANT_MAX_DAYS,
  PROMOTION_PRO_DAYS,
  parseCredentialsKey,
  revokeApiKey,
  revokePilotAccess,
  rotateCredentialsKey,
  type Storage,
  setUserTier,
  TIERS,
  type Tier,
  tierStanding,
  type UserRecord,
} from '@marketlens/server';
import { type Command, type CommandSpec, JSON_OPTION, type Parsed } from '../args.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { table, utc } from '../output/format.js';
import { printJson } from '../output/json.js';

const DATA_DIR_OPTION = {
  type: 'string',
  value: '<dir>',
  description: 'server data folder, default MARKETLENS_DATA_DIR or ./data',
} as const;

/** A user as the admin commands print it: never the password hash. */
export interface AdminUser {
  id: string;
  email: string;
  /** The base tier an admin set. */
  tier: Tier;
  /** The tier in force now (a grant may raise it). */
  effective_tier: Tier;
  /** The grant that raises it, with its expiry, or null. */
  grant: { tier: Tier; source: string; expires_at: number } | null;
  created_at: number;
  /** When an operator disabled the account, or null (`admin user disable` / `enable`). */
  disabled_at: number | null;
}

/** An API key as the admin commands print it: never its hash. */
export type AdminApiKey = Omit<ApiKeyRecord, 'key_hash' | 'user_id'>;

/** The spec of an admin subcommand: `--data-dir` and `--json` added, and the data-folder note. */
export function adminSpec(
  name: string,
  summary: string,
  args: string,
  n: number,
  extra: CommandSpec['options'] = {},
  notes: readonly string[] = [],
): CommandSpec {
  return {
    name: `admin ${name}`,
    summary,
    args,
    minArgs: n,
    maxArgs: n,
    options: { ...extra, 'data-dir': DATA_DIR_OPTION, json: JSON_OPTION },
    notes: [
      ...notes,
      'Works on the PostgreSQL database of DATABASE_URL when set, else on the SQLite storage of a data folder that `marketlens serve` created; run it beside the server or while it is stopped.',
    ],
  };
}

/**
 * Runs `work` on the server's storage, then closes it: the PostgreSQL database of `DATABASE_URL`
 * when set (and no `--data-dir` is given), else the SQLite file of the data folder (exit 3
 * `no_data_dir` when there is none).
 */
export async function withStorage<T>(args: Parsed, io: Io, work: (storage: Storage) => Promise<T>): Promise<T> {
  const url = io.env.DATABASE_URL?.trim();
  if (url && args.string('data-dir') === undefined) {
    let storage: Storage;
    try {
      storage = await createStorage({ url });
    } catch (err) {
      throw dataError(
        'no_database',
        `DATABASE_URL cannot be opened: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    try {
      return await work(storage);
    } finally {
      await storage.close();
    }
  }
  const dir = args.string('data-dir') ?? optionsFromEnv({ ...io.env, PORT: '' }).dataDir;
  if (!existsSync(join(dir, 'marketlens.sqlite'))) {
    throw dataError(
      'no_data_dir',
      `no marketlens data in ${dir} (start 'marketlens serve' once, or set MARKETLENS_DATA_DIR)`,
    );
  }
  const storage = openDataDir(dir);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

async function findUser(storage: Storage, emailOrId: string): Promise<UserRecord> {
  const user = (await storage.users.byEmail(emailOrId.trim().toLowerCase())) ?? (await storage.users.byId(emailOrId));
  if (user === null) throw dataError('unknown_user', `no user ${emailOrId}`);
  return user;
}

async function adminUser(storage: Storage, user: UserRecord, now: number): Promise<AdminUser> {
  const standing = await tierStanding(storage, user.id, user.tier, now);
  return {
    id: user.id,
    email: user.email,
    tier: user.tier,
    effective_tier: standing.tier,
    grant:
      standing.grant === null
        ? null
        : { tier: standing.grant.tier, source: standing.grant.source, expires_at: standing.grant.expires_at },
    created_at: user.created_at,
    disabled_at: user.disabled_at ?? null,
  };
}

function tierOf(raw: string, command: string): Tier {
  if (!(TIERS as readonly string[]).includes(raw))
    throw usageError(`tier must be one of ${TIERS.join(', ')}; got '${raw}'`, command);
  return raw as Tier;
}

function userText(u: AdminUser): string {
  const grant = u.grant === null ? 'none' : `${u.grant.tier} (${u.grant.source}) until ${utc(u.grant.expires_at)} UTC`;
  return table([
    ['email', u.email],
    ['id', u.id],
    ['tier', u.tier],
    ['effective tier', u.effective_tier],
    ['grant', grant],
    ['created', `${utc(u.created_at)} UTC`],
    ['disabled', u.disabled_at === null ? 'no' : `since ${utc(u.disabled_at)} UTC`],
  ]);
}

const tierCommand: Command = {
  spec: adminSpec('tier', "set a user's base tier", '<email> <free|pro|elite>', 2),
  async run(args, io) {
    const [email, raw] = args.positionals;
    const tier = tierOf(raw, 'admin tier');
    const user = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, email);
      return adminUser(storage, await setUserTier(storage, found.id, tier), Date.now());
    });
    if (args.flag('json')) printJson(io, 'admin.user', { user });
    else io.stdout(`${user.email}: tier ${user.tier} (effective ${user.effective_tier})\n`);
  },
};

const grantCommand: Command = {
  spec: adminSpec(
    'grant',
    'grant a tier for a number of days (a promotion, an affiliate, a courtesy)',
    '<email> <pro|elite>',
    2,
    {
      days: { type: 'string', value: '<n>', description: `days the grant lasts, default ${PROMOTION_PRO_DAYS}` },
      source: {
        type: 'string',
        value: '<source>',
        description: 'why, default admin',
        choices: ['promotion', 'affiliate', 'admin'],
      },
    },
  ),
  async run(args, io) {
    const [email, raw] = args.positionals;
    const tier = tierOf(raw, 'admin grant');
    const daysRaw = args.string('days') ?? String(PROMOTION_PRO_DAYS);
    const days = Number(daysRaw);
    if (!/^\d+$/.test(daysRaw) || days < 1 || days > 3650)
      throw usageError(`--days must be an integer 1..3650; got '${daysRaw}'`, 'admin grant');
    const source = (args.string('source') ?? 'admin') as 'promotion' | 'affiliate' | 'admin';
    const user = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, email);
      const now = Date.now();
      await grantUserTier(storage, found.id, tier, days, source, now);
      return adminUser(storage, found, now);
    });
    if (args.flag('json')) printJson(io, 'admin.user', { user });
    else io.stdout(`${user.email}: ${tier} for ${days} days (effective tier ${user.effective_tier})\n`);
  },
};

const userCommand: Command = {
  spec: adminSpec('user', 'show a user: tiers, grant in force', '<email>', 1),
  async run(args, io) {
    const user = await withStorage(args, io, async (storage) =>
      adminUser(storage, await findUser(storage, args.positionals[0]), Date.now()),
    );
    if (args.flag('json')) printJson(io, 'admin.user', { user });
    else io.stdout(userText(user));
  },
};

function adminKey({ key_hash: _hash, user_id: _user, ...rest }: ApiKeyRecord): AdminApiKey {
  return rest;
}

const when = (t: number | null) => (t === null ? '-' : utc(t));

/** Users are read a page at a time so a large table never sits in one statement's result. */
const USER_PAGE = 500;

const usersCommand: Command = {
  spec: adminSpec('users', 'list all users: base and effective tier, oldest first', '', 0),
  async run(args, io) {
    const users = await withStorage(args, io, async (storage) => {
      const now = Date.now();
      const all: AdminUser[] = [];
      for (let offset = 0; ; offset += USER_PAGE) {
        const page = await storage.users.list({ limit: USER_PAGE, offset });
        for (const u of page) all.push(await adminUser(storage, u, now));
        if (page.length < USER_PAGE) return all;
      }
    });
    if (args.flag('json')) {
      printJson(io, 'admin.users', { users });
      return;
    }
    if (users.length === 0) {
      io.stdout('no users\n');
      return;
    }
    io.stdout(
      table([
        ['email', 'id', 'tier', 'effective', 'created'],
        ...users.map((u) => [u.email, u.id, u.tier, u.effective_tier, utc(u.created_at)]),
      ]),
    );
  },
};

const keysCommand: Command = {
  spec: adminSpec('keys', "list a user's API keys (prefixes only; keys are stored as hashes)", '<email>', 1, {}, [
    "New key: 'marketlens admin keys create <email>'; revoke one: 'marketlens admin keys revoke <email> <prefix|id>'.",
  ]),
  async run(args, io) {
    const { user, keys } = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, args.positionals[0]);
      const records = await storage.apiKeys.listByUser(found.id);
      return { user: found, keys: records.map(adminKey) };
    });
    if (args.flag('json')) {
      printJson(io, 'admin.keys', { user_id: user.id, email: user.email, keys });
      return;
    }
    if (keys.length === 0) {
      io.stdout(`${user.email} has no API keys\n`);
      return;
    }
    io.stdout(
      table([
        ['id', 'name', 'prefix', 'created', 'last used', 'expires', 'revoked'],
        ...keys.map((k) => [
          k.id,
          k.name ?? '-',
          k.prefix,
          when(k.created_at),
          when(k.last_used_at),
          when(k.expires_at),
          when(k.revoked_at),
        ]),
      ]),
    );
  },
};

function expiresInDays(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > API_KEY_MAX_EXPIRES_DAYS)
    throw usageError(
      `--expires-in-days must be an integer 1..${API_KEY_MAX_EXPIRES_DAYS}; got '${raw}'`,
      'admin keys create',
    );
  return days;
}

const keyCreateCommand: Command = {
  spec: adminSpec(
    'keys create',
    'create an API key for a user and print it (shown only this once)',
    '<email>',
    1,
    {
      'expires-in-days': {
        type: 'string',
        value: '<n>',
        description: `days until the key expires, 1..${API_KEY_MAX_EXPIRES_DAYS}; default never`,
      },
    },
    [
      `A user holds at most ${MAX_ACTIVE_API_KEYS} active keys (exit 3, api_key_limit, beyond). The key is stored only as a hash: keep it now.`,
    ],
  ),
  async run(args, io) {
    const days = expiresInDays(args.string('expires-in-days'));
    const created = await withStorage(args, io, async (storage) => {
      const user = await findUser(storage, args.positionals[0]);
      try {
        const { key, record } = await createApiKey(storage, user.id, { expires_in_days: days }, Date.now());
        return { user, key, apiKey: adminKey(record) };
      } catch (err) {
        if (err instanceof AppError && err.code === 'ApiKeyLimitExceeded')
          throw dataError('api_key_limit', `${user.email} already holds ${MAX_ACTIVE_API_KEYS} active API keys`);
        throw err;
      }
    });
    if (args.flag('json')) {
      printJson(io, 'admin.key.created', {
        user_id: created.user.id,
        email: created.user.email,
        key: created.key,
        api_key: created.apiKey,
      });
      return;
    }
    const k = created.apiKey;
    io.stdout(
      `${table([
        ['key', created.key],
        ['id', k.id],
        ['prefix', k.prefix],
        ['user', created.user.email],
        ['expires', k.expires_at === null ? 'never' : `${utc(k.expires_at)} UTC`],
      ])}Keep the key now: it is stored only as a hash and cannot be shown again.\n`,
    );
  },
};

/** The user's key named by its id or its prefix; a prefix several keys share names the one still active. */
function findKey(keys: readonly ApiKeyRecord[], idOrPrefix: string, email: string, now: number): ApiKeyRecord {
  const byId = keys.find((k) => k.id === idOrPrefix);
  if (byId !== undefined) return byId;
  const matches = keys.filter((k) => k.prefix === idOrPrefix);
  const candidates = matches.length > 1 ? matches.filter((k) => isKeyActive(k, now)) : matches;
  const [only, ...others] = candidates;
  if (matches.length === 0 || only === undefined)
    throw dataError('unknown_key', `${email} has no API key with id or prefix ${idOrPrefix}`);
  if (others.length > 0)
    throw dataError('ambiguous_key', `several API keys of ${email} have the prefix ${idOrPrefix}; give the id`);
  return only;
}

const keyRevokeCommand: Command = {
  spec: adminSpec(
    'keys revoke',
    'revoke an API key at once (its record stays for audit)',
    '<email> <key-prefix-or-id>',
    2,
    {},
    ["Name the key by its id or its prefix as 'marketlens admin keys <email>' lists them."],
  ),
  async run(args, io) {
    const [email, idOrPrefix] = args.positionals;
    const revoked = await withStorage(args, io, async (storage) => {
      const user = await findUser(storage, email);
      const now = Date.now();
      const target = findKey(await storage.apiKeys.listByUser(user.id), idOrPrefix, user.email, now);
      const gone = () =>
        dataError('key_revoked', `API key ${target.prefix} (${target.id}) of ${user.email} is already revoked`);
      if (target.revoked_at !== null) throw gone();
      try {
        await revokeApiKey(storage, user.id, target.id, now);
      } catch (err) {
        // Revoked by someone else between the list and the update.
        if (err instanceof AppError && err.code === 'NotFound') throw gone();
        throw err;
      }
      const after = (await storage.apiKeys.listByUser(user.id)).find((k) => k.id === target.id) ?? {
        ...target,
        revoked_at: now,
      };
      return { user, apiKey: adminKey(after) };
    });
    if (args.flag('json')) {
      printJson(io, 'admin.key.revoked', {
        user_id: revoked.user.id,
        email: revoked.user.email,
        api_key: revoked.apiKey,
      });
      return;
    }
    io.stdout(
      `${revoked.user.email}: revoked API key ${revoked.apiKey.prefix} (${revoked.apiKey.id}) at ${when(revoked.apiKey.revoked_at)} UTC\n`,
    );
  },
};

const pilotGrantCommand: Command = {
  spec: adminSpec(
    'pilot grant',
    "let a user spectate the pilot whatever their affiliate volume (an operator's grant)",
    '<email>',
    1,
    { days: { type: 'string', value: '<n>', description: `days the grant lasts, default ${DEMO_PILOT_DAYS}` } },
    ['Granting again replaces the earlier grant. Affiliate volume still qualifies users without one.'],
  ),
  async run(args, io) {
    const daysRaw = args.string('days') ?? String(DEMO_PILOT_DAYS);
    const days = Number(daysRaw);
    if (!/^\d+$/.test(daysRaw) || days < 1 || days > PILOT_GRANT_MAX_DAYS)
      throw usageError(`--days must be an integer 1..${PILOT_GRANT_MAX_DAYS}; got '${daysRaw}'`, 'admin pilot grant');
    const grant = await withStorage(args, io, async (storage) => {
      const user = await findUser(storage, args.positionals[0]);
      return grantPilotAccess(storage, user.id, days, Date.now());
    });
    const view = { email: grant.email, granted_at: grant.granted_at, expires_at: grant.expires_at };
    if (args.flag('json')) printJson(io, 'admin.pilot_access', { pilot_access: view });
    else io.stdout(`${grant.email}: may spectate the pilot until ${utc(grant.expires_at)} UTC\n`);
  },
};

const pilotRevokeCommand: Command = {
  spec: adminSpec('pilot revoke', "end a user's pilot grant", '<email>', 1),
  async run(args, io) {
    const { email, revoked } = await withStorage(args, io, async (storage) => {
      const user = await findUser(storage, args.positionals[0]);
      return { email: user.email, revoked: await revokePilotAccess(storage, user.id) };
    });
    if (!revoked) throw dataError('no_pilot_grant', `${email} holds no pilot grant`);
    if (args.flag('json')) printJson(io, 'admin.pilot_access', { pilot_access: null, email });
    else io.stdout(`${email}: pilot grant ended (affiliate volume may still qualify)\n`);
  },
};

/** `marketlens admin ...` subcommands. */
const sessionsRevokeCommand: Command = {
  spec: adminSpec(
    'sessions revoke',
    'end every session of a user (and the OAuth grants bound to them); API keys are left as they are',
    '<email>',
    1,
    {},
    ['Instances believe a session they read for at most one second: the user is signed out everywhere within it.'],
  ),
  async run(args, io) {
    const [email] = args.positionals;
    const done = await withStorage(args, io, async (storage) => {
      const user = await findUser(storage, email);
      return { user, sessions: await storage.sessions.deleteByUser(user.id) };
    });
    if (args.flag('json')) {
      printJson(io, 'admin.sessions.revoked', {
        user_id: done.user.id,
        email: done.user.email,
        sessions: done.sessions,
      });
      return;
    }
    io.stdout(`${done.user.email}: ${done.sessions} session${done.sessions === 1 ? '' : 's'} ended\n`);
  },
};

const userDeleteCommand: Command = {
  spec: adminSpec(
    'user delete',
    'delete a user and everything of theirs (sessions, API keys, connections, alerts, devices, webhooks), keeping only the audit record of its API keys',
    '<email>',
    1,
    { yes: { type: 'boolean', description: 'really delete (without it, nothing is changed)' } },
    ['Cannot be undone: take a backup first (deploy/backup.sh).'],
  ),
  async run(args, io) {
    const [email] = args.positionals;
    if (!args.flag('yes')) throw usageError(`deleting ${email} cannot be undone: add --yes`, 'admin user delete');
    const user = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, email);
      if (!(await storage.users.erase(found.id, Date.now()))) throw dataError('unknown_user', `no user ${email}`);
      return found;
    });
    if (args.flag('json')) printJson(io, 'admin.user.deleted', { user_id: user.id, email: user.email });
    else io.stdout(`${user.email}: deleted (${user.id})\n`);
  },
};

const userDisableCommand: Command = {
  spec: adminSpec(
    'user disable',
    'disable a user: no sign-in, every session and OAuth token ended, API keys refused (kept), syncs and alerts paused',
    '<email|id>',
    1,
    {},
    [
      "Sign-in and the user's API keys answer 403 AccountDisabled. Undo with 'marketlens admin user enable' (the keys work again; sessions stay ended).",
      'Instances believe a session they read for at most one second: the user is signed out everywhere within it.',
    ],
  ),
  async run(args, io) {
    const done = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, args.positionals[0]);
      return disableUser(storage, found.id, Date.now());
    });
    if (args.flag('json')) {
      printJson(io, 'admin.user.disabled', {
        user_id: done.user.id,
        email: done.user.email,
        disabled_at: done.user.disabled_at ?? null,
        changed: done.changed,
        sessions: done.sessions,
        oauth_tokens: done.oauth_tokens,
      });
      return;
    }
    const state = done.changed ? 'disabled' : `already disabled since ${utc(done.user.disabled_at ?? 0)} UTC`;
    io.stdout(
      `${done.user.email}: ${state}; ${done.sessions} session${done.sessions === 1 ? '' : 's'} ended, ${done.oauth_tokens} OAuth token${done.oauth_tokens === 1 ? '' : 's'} revoked\n`,
    );
  },
};

const userEnableCommand: Command = {
  spec: adminSpec(
    'user enable',
    'enable a disabled user again: sign-in and the API keys that were active work again',
    '<email|id>',
    1,
    {},
    ['Sessions and OAuth tokens ended by the disable stay ended: the user signs in again.'],
  ),
  async run(args, io) {
    const done = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, args.positionals[0]);
      return enableUser(storage, found.id);
    });
    if (args.flag('json')) {
      printJson(io, 'admin.user.enabled', { user_id: done.user.id, email: done.user.email, changed: done.changed });
      return;
    }
    io.stdout(`${done.user.email}: ${done.changed ? 'enabled' : 'was not disabled'}\n`);
  },
};

const keyRotateCommand: Command = {
  spec: adminSpec(
    'key rotate',
    're-encrypt every stored exchange credential and webhook secret under a new MARKETLENS_SECRET_KEY',
    '',
    0,
    {},
    [
      'Set MARKETLENS_SECRET_KEY to the new key and MARKETLENS_SECRET_KEY_PREVIOUS to the old one, here and (first) on every instance and worker; see deploy/README.md for the order of steps.',
      'Idempotent: a second run finds everything current. Exit 3 when a stored secret opens with neither key.',
    ],
  ),
  async run(args, io) {
    const nextRaw = io.env.MARKETLENS_SECRET_KEY?.trim();
    const previousRaw = io.env.MARKETLENS_SECRET_KEY_PREVIOUS?.trim();
    if (!nextRaw || !previousRaw) {
      throw usageError(
        'key rotate needs MARKETLENS_SECRET_KEY (the new key) and MARKETLENS_SECRET_KEY_PREVIOUS (the old one)',
        'admin key rotate',
      );
    }
    let next: Buffer;
    let previous: Buffer;
    try {
      next = parseCredentialsKey(nextRaw);
      previous = parseCredentialsKey(previousRaw);
    } catch (err) {
      throw usageError(err instanceof Error ? err.message : String(err), 'admin key rotate');
    }
    if (next.equals(previous)) {
      throw usageError('MARKETLENS_SECRET_KEY and MARKETLENS_SECRET_KEY_PREVIOUS are the same key', 'admin key rotate');
    }
    const report = await withStorage(args, io, (storage) => rotateCredentialsKey(storage, previous, next));
    if (args.flag('json')) printJson(io, 'admin.key.rotated', { ...report });
    else {
      for (const [table, r] of Object.entries(report)) {
        io.stdout(
          `${table}: ${r.rotated} re-encrypted, ${r.current} already under the new key, ${r.unreadable.length} unreadable\n`,
        );
      }
    }
    const unreadable = Object.values(report).flatMap((r) => r.unreadable);
    if (unreadable.length > 0) {
      throw dataError(
        'unreadable_credentials',
        `${unreadable.length} stored secret(s) open with neither key, left as they are: ${unreadable.join(', ')}`,
      );
    }
  },
};

export const adminCommands: readonly Command[] = [
  tierCommand,
  grantCommand,
  userCommand,
  usersCommand,
  keysCommand,
  keyCreateCommand,
  keyRevokeCommand,
  pilotGrantCommand,
  pilotRevokeCommand,
  sessionsRevokeCommand,
  userDeleteCommand,
  userDisableCommand,
  userEnableCommand,
  keyRotateCommand,
];
