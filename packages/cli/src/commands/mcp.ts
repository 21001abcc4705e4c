/**
 * `marketlens mcp`: the MCP tool catalog over stdio, for Claude Desktop, an IDE or an agent that
 * starts it as a child process. stdout carries MCP protocol messages only; every log goes to stderr.
 *
 * Two backends:
 * - embedded (default): the server's own services over the SQLite data folder and the simulated
 *   venue, in this process, for one local user (the demo user, or `--email`): no network needed;
 * - `--server <url>`: a running marketlens server's REST API, signed in with a session token
 *   (`--token` or MARKETLENS_SESSION_TOKEN).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Backend, createRestBackend, runStdio } from '@marketlens/mcp';
import {
  ConfigError,
  createMarketlens,
  DATABASE_FILE,
  DEMO_EMAIL,
  loadConfig,
  type Marketlens,
  type MarketlensConfig,
  type Storage,
  seedDemo,
  tierStanding,
} from '@marketlens/server';
import type { Command, Parsed } from '../args.js';
import { clockFrom, simulatedVenue } from '../data/source.js';
import { dataError, usageError } from '../errors.js';
import type { Io } from '../io.js';

/** How long the start-up check of `--server` waits for the server. */
const CHECK_TIMEOUT_MS = 10_000;

const NAME = 'mcp';

export const mcpCommand: Command = {
  spec: {
    name: NAME,
    summary: 'run the MCP server over stdio (embedded data folder, or a remote server with --server)',
    args: '',
    minArgs: 0,
    maxArgs: 0,
    options: {
      server: {
        type: 'string',
        value: '<url>',
        description: 'use a running marketlens server over REST instead of the embedded data folder',
      },
      token: {
        type: 'string',
        value: '<token>',
        description: 'session token for --server (default MARKETLENS_SESSION_TOKEN)',
      },
      'data-dir': {
        type: 'string',
        value: '<dir>',
        description: 'embedded: data folder, default MARKETLENS_DATA_DIR or ./data (created if missing)',
      },
      config: { type: 'string', value: '<file>', description: 'embedded: a JSON config file (as for serve)' },
      market: {
        type: 'string',
        value: '<sources>',
        description: 'embedded: market sources, default MARKETLENS_MARKET or simulated (e.g. ccxt:binance,yahoo)',
      },
      email: {
        type: 'string',
        value: '<email>',
        description: `embedded: serve this existing user (default: the demo user ${DEMO_EMAIL}, created if missing)`,
      },
    },
    examples: [
      'marketlens mcp',
      'marketlens mcp --data-dir ~/.marketlens --email ada@example.com',
      'MARKETLENS_SESSION_TOKEN=... marketlens mcp --server https://api.example.com',
    ],
    notes: [
      'Meant to be started by an MCP client (Claude Desktop, an IDE, an agent), which talks to it over stdin/stdout; stdout carries protocol messages only, logs go to stderr. It runs until stdin closes.',
      'Embedded: the tools read and write the SQLite data folder that `marketlens serve` uses, as that user, on the configured market (default the simulated venue; MARKETLENS_NOW pins its clock). Positions, balances and fills are the ones the server synced into the folder.',
      'Remote: every tool is one call of the server REST API with the session token (POST /v1/auth/login, or the token `marketlens serve` prints); tool errors carry the REST error codes.',
    ],
  },
  async run(args, io) {
    // stdout is the protocol channel: a stray console.log from any module would corrupt it.
    console.log = console.error;
    console.info = console.error;
    console.debug = console.error;
    const server = args.string('server');
    if (server === undefined) {
      if (args.string('token') !== undefined) throw usageError('--token goes with --server', NAME);
      await serveEmbedded(args, io);
    } else {
      if (['data-dir', 'email', 'config', 'market'].some((o) => args.string(o) !== undefined)) {
        throw usageError(
          '--data-dir, --email, --config and --market are for the embedded mode; leave them out with --server',
          NAME,
        );
      }
      await serveRemote(server, args, io);
    }
  },
};

async function serveRemote(server: string, args: Parsed, io: Io): Promise<void> {
  const token = args.string('token') ?? io.env.MARKETLENS_SESSION_TOKEN;
  if (token === undefined || token.trim() === '') {
    throw usageError('--server needs a session token: --token <token> or MARKETLENS_SESSION_TOKEN', NAME);
  }
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw usageError(`--server must be an http(s) URL; got '${server}'`, NAME);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`--server must be an http(s) URL; got '${server}'`, NAME);
  }
  const baseUrl = url.href.replace(/\/+$/, '');
  await checkSession(baseUrl, token.trim(), io);
  await start(createRestBackend({ baseUrl, sessionToken: token.trim() }), io, `${baseUrl} (REST)`);
}

/**
 * Refuses a token the server rejects before an MCP client sees a tool list that cannot work; a server
 * that does not answer is only reported (it may come up later; each tool then answers ServiceUnavailable).
 */
async function checkSession(baseUrl: string, token: string, io: Io): Promise<void> {
  let res: Response;
  let body: { success?: boolean; code?: unknown; message?: unknown; data?: { caller?: { state?: string } } };
  try {
    res = await fetch(`${baseUrl}/v2/config`, {
      headers: { 'x-session-token': token, accept: 'application/json' },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    body = (await res.json()) as typeof body;
  } catch (err) {
    io.stderr(
      `[marketlens mcp] warning: ${baseUrl} did not answer (${err instanceof Error ? err.message : String(err)}); serving anyway\n`,
    );
    return;
  }
  if (res.status === 401 || (body.success === true && body.data?.caller?.state === 'anonymous')) {
    const why = typeof body.message === 'string' ? `: ${body.code} ${body.message}` : '';
    throw dataError('invalid_session', `${baseUrl} refused the session token${why}`);
  }
}

async function serveEmbedded(args: Parsed, io: Io): Promise<void> {
  let config: MarketlensConfig;
  try {
    config = loadConfig({
      env: io.env,
      file: args.string('config'),
      overrides: { PORT: '', MARKETLENS_DATA_DIR: args.string('data-dir'), MARKETLENS_MARKET: args.string('market') },
    });
  } catch (err) {
    throw usageError(err instanceof Error ? err.message : String(err), NAME);
  }
  const dataDir = config.server.dataDir;
  const email = args.string('email');
  if (email !== undefined && !existsSync(join(dataDir, DATABASE_FILE))) {
    throw dataError('no_data_dir', `no marketlens data in ${dataDir}, so no user ${email} (start 'marketlens serve')`);
  }
  const now = clockFrom(io.env);
  const simulated = config.market.sources.length === 1 && config.market.sources[0].kind === 'simulated';
  let ml: Marketlens;
  try {
    ml = await createMarketlens(config, {
      demo: false,
      extra: { now },
      ...(simulated ? { market: simulatedVenue(io.env) } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigError) throw usageError(err.message, NAME);
    throw err;
  }
  const { storage } = ml;
  try {
    const user = await localUser(storage, email);
    const standing = await tierStanding(storage, user.id, user.tier, now());
    const backend = ml.mcpBackend({
      kind: 'session',
      user,
      tier: standing.tier,
      tier_expires_at: standing.grant?.expires_at ?? null,
      api_key_id: null,
    });
    await start(backend, io, `${dataDir} as ${user.email} (${standing.tier})`, () => void ml.close());
  } catch (err) {
    await ml.close();
    throw err;
  }
}

/** The user the embedded tools act as: `email` (which must exist), or the demo user, created once. */
async function localUser(storage: Storage, email: string | undefined) {
  if (email !== undefined) {
    const user = await storage.users.byEmail(email.trim().toLowerCase());
    if (!user) throw dataError('unknown_user', `no user ${email} in this data folder (see 'marketlens admin users')`);
    return user;
  }
  const demo = await storage.users.byEmail(DEMO_EMAIL);
  if (demo) return demo;
  // First run on this folder: the same demo user `marketlens serve` creates (its new session and key are not used here).
  await seedDemo(storage);
  const created = await storage.users.byEmail(DEMO_EMAIL);
  if (!created) throw new Error('the demo user could not be created');
  return created;
}

/** Serves `backend` over stdio until stdin closes, then runs `cleanup`. */
async function start(backend: Backend, io: Io, what: string, cleanup?: () => void): Promise<void> {
  // The stdio server reports the service contract's version, as the HTTP one does.
  const server = await runStdio(backend);
  io.stderr(`[marketlens mcp] serving ${what} over stdio\n`);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= server.close().finally(() => cleanup?.());
    return stopping;
  };
  // The client closing stdin ends the session; a signal ends the process once storage is closed.
  process.stdin.once('end', () => void stop());
  process.stdin.once('close', () => void stop());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(0)));
  }
}
