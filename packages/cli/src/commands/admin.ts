import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ApiKeyRecord,
  grantUserTier,
  openDataDir,
  optionsFromEnv,
  PROMOTION_PRO_DAYS,
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
}

/** An API key as the admin commands print it: never its hash. */
export type AdminApiKey = Omit<ApiKeyRecord, 'key_hash' | 'user_id'>;

function adminSpec(
  name: string,
  summary: string,
  args: string,
  n: number,
  extra: CommandSpec['options'] = {},
): CommandSpec {
  return {
    name: `admin ${name}`,
    summary,
    args,
    minArgs: n,
    maxArgs: n,
    options: { ...extra, 'data-dir': DATA_DIR_OPTION, json: JSON_OPTION },
    notes: [
      'Works on the SQLite storage of a data folder that `marketlens serve` created; run it beside the server or while it is stopped.',
    ],
  };
}

async function withStorage<T>(args: Parsed, io: Io, work: (storage: Storage) => Promise<T>): Promise<T> {
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

const keysCommand: Command = {
  spec: adminSpec('keys', "list a user's API keys (prefixes only; keys are stored as hashes)", '<email>', 1),
  async run(args, io) {
    const { user, keys } = await withStorage(args, io, async (storage) => {
      const found = await findUser(storage, args.positionals[0]);
      const records = await storage.apiKeys.listByUser(found.id);
      const list: AdminApiKey[] = records.map(({ key_hash: _hash, user_id: _user, ...rest }) => rest);
      return { user: found, keys: list };
    });
    if (args.flag('json')) {
      printJson(io, 'admin.keys', { user_id: user.id, email: user.email, keys });
      return;
    }
    if (keys.length === 0) {
      io.stdout(`${user.email} has no API keys\n`);
      return;
    }
    const when = (t: number | null) => (t === null ? '-' : utc(t));
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

/** `marketlens admin ...` subcommands. */
export const adminCommands: readonly Command[] = [tierCommand, grantCommand, userCommand, keysCommand];
