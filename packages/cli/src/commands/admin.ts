import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ADMIN_GRANT_MAX_DAYS,
  type AdminApiKey,
  type AdminUser,
  type OperationId,
  type OperationOutput,
  TIERS,
  type TierName,
} from '@marketlens/contract';
import {
  API_KEY_MAX_EXPIRES_DAYS,
  AppError,
  createStorage,
  createUseCases,
  DEFAULT_CONFIG,
  DEMO_PILOT_DAYS,
  invokeOperation,
  MAX_ACTIVE_API_KEYS,
  MCP_CLIENT,
  openDataDir,
  optionsFromEnv,
  PILOT_GRANT_MAX_DAYS,
  PROMOTION_PRO_DAYS,
  parseCredentialsKey,
  rotateCredentialsKey,
  type Storage,
} from '@marketlens/server';
import { type Command, type CommandSpec, JSON_OPTION, type Parsed } from '../args.js';
import { simulatedVenue } from '../data/source.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';
import { table, utc } from '../output/format.js';
import { printJson } from '../output/json.js';

export type { AdminApiKey, AdminUser };

const DATA_DIR_OPTION = {
  type: 'string',
  value: '<dir>',
  description: 'server data folder, default MARKETLENS_DATA_DIR or ./data',
} as const;

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

/** Runs the declared operation `K` as the operator, with the registry's parse, caller check and error codes. */
export type Invoke = <K extends OperationId>(id: K, input: Record<string, unknown>) => Promise<OperationOutput<K>>;

/**
 * Runs `work` as the operator over the server's storage (see {@link withStorage}): each admin
 * command is an adapter that invokes the `admin.*` operations of the registry (declared in
 * `@marketlens/contract`, bound in the server), allowed for the operator only.
 */
export async function asOperator<T>(args: Parsed, io: Io, work: (invoke: Invoke) => Promise<T>): Promise<T> {
  return withStorage(args, io, (storage) => {
    // The admin use cases read only the storage and the clock; the market is the idle simulated venue.
    const useCases = createUseCases({ storage, config: DEFAULT_CONFIG, now: Date.now, market: simulatedVenue(io.env) });
    const actor = { caller: { kind: 'anonymous' as const }, client: { ...MCP_CLIENT } };
    return work(
      async (id, input) =>
        (await invokeOperation(useCases, actor, id, input, { operator: true })) as OperationOutput<typeof id>,
    );
  });
}

/** Runs `call`; a `NotFound` (the only one of the operation: the user it names) is exit 3 `unknown_user`. */
async function onUser<T>(emailOrId: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NotFound') throw dataError('unknown_user', `no user ${emailOrId}`);
    throw err;
  }
}

function tierOf(raw: string, command: string): TierName {
  if (!(TIERS as readonly string[]).includes(raw))
    throw usageError(`tier must be one of ${TIERS.join(', ')}; got '${raw}'`, command);
  return raw as TierName;
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

/** How an admin command prints its operation's answer: `--json` (its schema and object), else text. */
interface Printing<K extends OperationId> {
  schema: string;
  json(out: OperationOutput<K>): Record<string, unknown>;
  /** The text for people, from the answer and the input the command line gave. */
  text(out: OperationOutput<K>, input: Readonly<Record<string, unknown>>): string;
}

/**
 * An admin command over the one user it names (its first argument): `input` reads the rest of the
 * command line (usage errors before any storage is opened), then it invokes `id` as the operator
 * with the user, and prints the answer.
 */
function onUserCommand<K extends OperationId>(
  spec: CommandSpec,
  id: K,
  printing: Printing<K>,
  input: (args: Parsed) => Record<string, unknown> = () => ({}),
): Command {
  return {
    spec,
    async run(args, io) {
      const [email] = args.positionals;
      const rest = input(args);
      const out = await asOperator(args, io, (invoke) => onUser(email, invoke(id, { ...rest, user: email })));
      if (args.flag('json')) printJson(io, printing.schema, printing.json(out));
      else io.stdout(printing.text(out, rest));
    },
  };
}

/** `--days` of a grant: an integer 1..`max`, default `fallback`. */
function daysOf(args: Parsed, fallback: number, max: number, command: string): number {
  const raw = args.string('days') ?? String(fallback);
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > max)
    throw usageError(`--days must be an integer 1..${max}; got '${raw}'`, command);
  return days;
}

const ended = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

const tierCommand = onUserCommand(
  adminSpec('tier', "set a user's base tier", '<email> <free|pro|elite>', 2),
  'admin.setTier',
  {
    schema: 'admin.user',
    json: (user) => ({ user }),
    text: (user) => `${user.email}: tier ${user.tier} (effective ${user.effective_tier})\n`,
  },
  (args) => ({ tier: tierOf(args.positionals[1], 'admin tier') }),
);

const grantCommand = onUserCommand(
  adminSpec(
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
  'admin.grantTier',
  {
    schema: 'admin.user',
    json: (user) => ({ user }),
    text: (user, input) =>
      `${user.email}: ${String(input.tier)} for ${String(input.days)} days (effective tier ${user.effective_tier})\n`,
  },
  (args) => ({
    tier: tierOf(args.positionals[1], 'admin grant'),
    days: daysOf(args, PROMOTION_PRO_DAYS, ADMIN_GRANT_MAX_DAYS, 'admin grant'),
    source: args.string('source') ?? 'admin',
  }),
);

const userCommand = onUserCommand(adminSpec('user', 'show a user: tiers, grant in force', '<email>', 1), 'admin.user', {
  schema: 'admin.user',
  json: (user) => ({ user }),
  text: (user) => userText(user),
});

const pilotGrantCommand = onUserCommand(
  adminSpec(
    'pilot grant',
    "let a user spectate the pilot whatever their affiliate volume (an operator's grant)",
    '<email>',
    1,
    { days: { type: 'string', value: '<n>', description: `days the grant lasts, default ${DEMO_PILOT_DAYS}` } },
    ['Granting again replaces the earlier grant. Affiliate volume still qualifies users without one.'],
  ),
  'admin.grantPilot',
  {
    schema: 'admin.pilot_access',
    json: (g) => ({ pilot_access: { email: g.email, granted_at: g.granted_at, expires_at: g.expires_at } }),
    text: (g) => `${g.email}: may spectate the pilot until ${utc(g.expires_at)} UTC\n`,
  },
  (args) => ({ days: daysOf(args, DEMO_PILOT_DAYS, PILOT_GRANT_MAX_DAYS, 'admin pilot grant') }),
);

const sessionsRevokeCommand = onUserCommand(
  adminSpec(
    'sessions revoke',
    'end every session of a user (and the OAuth grants bound to them); API keys are left as they are',
    '<email>',
    1,
    {},
    ['Instances believe a session they read for at most one second: the user is signed out everywhere within it.'],
  ),
  'admin.revokeSessions',
  {
    schema: 'admin.sessions.revoked',
    json: (done) => ({ ...done }),
    text: (done) => `${done.email}: ${ended(done.sessions, 'session')} ended\n`,
  },
);

const userDeleteCommand = onUserCommand(
  adminSpec(
    'user delete',
    'delete a user and everything of theirs (sessions, API keys, connections, alerts, devices, webhooks), keeping only the audit record of its API keys',
    '<email>',
    1,
    { yes: { type: 'boolean', description: 'really delete (without it, nothing is changed)' } },
    ['Cannot be undone: take a backup first (deploy/backup.sh).'],
  ),
  'admin.deleteUser',
  {
    schema: 'admin.user.deleted',
    json: (user) => ({ ...user }),
    text: (user) => `${user.email}: deleted (${user.user_id})\n`,
  },
  (args) => {
    if (!args.flag('yes'))
      throw usageError(`deleting ${args.positionals[0]} cannot be undone: add --yes`, 'admin user delete');
    return {};
  },
);

const userDisableCommand = onUserCommand(
  adminSpec(
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
  'admin.disableUser',
  {
    schema: 'admin.user.disabled',
    json: (done) => ({ ...done }),
    text: (done) => {
      const state = done.changed ? 'disabled' : `already disabled since ${utc(done.disabled_at ?? 0)} UTC`;
      return `${done.email}: ${state}; ${ended(done.sessions, 'session')} ended, ${ended(done.oauth_tokens, 'OAuth token')} revoked\n`;
    },
  },
);

const userEnableCommand = onUserCommand(
  adminSpec(
    'user enable',
    'enable a disabled user again: sign-in and the API keys that were active work again',
    '<email|id>',
    1,
    {},
    ['Sessions and OAuth tokens ended by the disable stay ended: the user signs in again.'],
  ),
  'admin.enableUser',
  {
    schema: 'admin.user.enabled',
    json: (done) => ({ user_id: done.user_id, email: done.email, changed: done.changed }),
    text: (done) => `${done.email}: ${done.changed ? 'enabled' : 'was not disabled'}\n`,
  },
);

const when = (t: number | null) => (t === null ? '-' : utc(t));

/** A listing an admin command prints: its JSON kind and key, what it says when empty, its table. */
export interface Listing<T> {
  kind: string;
  key: string;
  empty: string;
  header: readonly string[];
  cells: (row: T) => string[];
}

/** Prints `rows`: `{ [key]: rows }` with `--json`, else the empty line or the table. */
export function printListing<T>(args: Parsed, io: Io, listing: Listing<T>, rows: readonly T[]): void {
  if (args.flag('json')) {
    printJson(io, listing.kind, { [listing.key]: rows });
    return;
  }
  io.stdout(rows.length === 0 ? `${listing.empty}\n` : table([[...listing.header], ...rows.map(listing.cells)]));
}

const usersCommand: Command = {
  spec: adminSpec('users', 'list all users: base and effective tier, oldest first', '', 0),
  async run(args, io) {
    const users = await asOperator(args, io, (invoke) => invoke('admin.users', {}));
    printListing(
      args,
      io,
      {
        kind: 'admin.users',
        key: 'users',
        empty: 'no users',
        header: ['email', 'id', 'tier', 'effective', 'created'],
        cells: (u) => [u.email, u.id, u.tier, u.effective_tier, utc(u.created_at)],
      },
      users,
    );
  },
};

const keysCommand: Command = {
  spec: adminSpec('keys', "list a user's API keys (prefixes only; keys are stored as hashes)", '<email>', 1, {}, [
    "New key: 'marketlens admin keys create <email>'; revoke one: 'marketlens admin keys revoke <email> <prefix|id>'.",
  ]),
  async run(args, io) {
    const [email] = args.positionals;
    const listed = await asOperator(args, io, (invoke) => onUser(email, invoke('admin.apiKeys', { user: email })));
    const { keys } = listed;
    const user = { email: listed.email };
    if (args.flag('json')) {
      printJson(io, 'admin.keys', { user_id: listed.user_id, email: listed.email, keys });
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
    const [email] = args.positionals;
    const created = await asOperator(args, io, async (invoke) => {
      try {
        return await onUser(email, invoke('admin.createApiKey', { user: email, expires_in_days: days }));
      } catch (err) {
        if (err instanceof AppError && err.code === 'ApiKeyLimitExceeded')
          throw dataError('api_key_limit', `${email} already holds ${MAX_ACTIVE_API_KEYS} active API keys`);
        throw err;
      }
    });
    if (args.flag('json')) {
      printJson(io, 'admin.key.created', {
        user_id: created.user_id,
        email: created.email,
        key: created.key,
        api_key: created.api_key,
      });
      return;
    }
    const k = created.api_key;
    io.stdout(
      `${table([
        ['key', created.key],
        ['id', k.id],
        ['prefix', k.prefix],
        ['user', created.email],
        ['expires', k.expires_at === null ? 'never' : `${utc(k.expires_at)} UTC`],
      ])}Keep the key now: it is stored only as a hash and cannot be shown again.\n`,
    );
  },
};

/** The user's key named by its id or its prefix; a prefix several keys share names the one still active. */
function findKey(keys: readonly AdminApiKey[], idOrPrefix: string, email: string, now: number): AdminApiKey {
  const byId = keys.find((k) => k.id === idOrPrefix);
  if (byId !== undefined) return byId;
  const matches = keys.filter((k) => k.prefix === idOrPrefix);
  const active = (k: AdminApiKey) => k.revoked_at === null && (k.expires_at === null || k.expires_at > now);
  const candidates = matches.length > 1 ? matches.filter(active) : matches;
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
    const revoked = await asOperator(args, io, async (invoke) => {
      const { email: owner, keys } = await onUser(email, invoke('admin.apiKeys', { user: email }));
      const target = findKey(keys, idOrPrefix, owner, Date.now());
      const gone = () =>
        dataError('key_revoked', `API key ${target.prefix} (${target.id}) of ${owner} is already revoked`);
      if (target.revoked_at !== null) throw gone();
      try {
        return await invoke('admin.revokeApiKey', { user: email, key_id: target.id });
      } catch (err) {
        // Revoked by someone else between the list and the update.
        if (err instanceof AppError && err.code === 'NotFound') throw gone();
        throw err;
      }
    });
    if (args.flag('json')) {
      printJson(io, 'admin.key.revoked', { user_id: revoked.user_id, email: revoked.email, api_key: revoked.api_key });
      return;
    }
    io.stdout(
      `${revoked.email}: revoked API key ${revoked.api_key.prefix} (${revoked.api_key.id}) at ${when(revoked.api_key.revoked_at)} UTC\n`,
    );
  },
};

const pilotRevokeCommand: Command = {
  spec: adminSpec('pilot revoke', "end a user's pilot grant", '<email>', 1),
  async run(args, io) {
    const [named] = args.positionals;
    const { email, revoked } = await asOperator(args, io, (invoke) =>
      onUser(named, invoke('admin.revokePilot', { user: named })),
    );
    if (!revoked) throw dataError('no_pilot_grant', `${email} holds no pilot grant`);
    if (args.flag('json')) printJson(io, 'admin.pilot_access', { pilot_access: null, email });
    else io.stdout(`${email}: pilot grant ended (affiliate volume may still qualify)\n`);
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
