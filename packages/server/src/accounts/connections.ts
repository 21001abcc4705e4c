/**
 * Connected exchange accounts: connecting one (credential fields checked, then verified against
 * the venue, then stored encrypted), listing them with their positions and sync state, and opening
 * a stored connection's account for the sync job. Credentials never leave this module and the sync
 * job in clear, and never reach a response or a log line.
 */
import { randomUUID } from 'node:crypto';
import { connectionWire, type UserConnection } from '@marketlens/contract';
import {
  type AccountData,
  CCXT_VENUES,
  checkVenueCredentials,
  createCcxtAccountData,
  createSimulatedAccount,
  createSimulatedVenue,
  isCcxtVenue,
  type MarketData,
  SIMULATED_VENUE_ID,
  type SimulatedVenue,
  type VenueCredentials,
  VenueError,
  verifyCcxtCredentials,
} from '@marketlens/exchanges';
import { requireVerifiedEmail } from '../auth/verification/verification.js';
import { marketOf } from '../market/market.js';
import { stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { credentialsKeyOf, encryptCredentials, openCredentials } from '../platform/secrets.js';
import type { ConnectionRecord } from '../storage/account-types.js';
import type { AccountConnection } from './config.js';

/** Exchanges a user can connect: the ccxt venues and the simulated venue. */
export const CONNECTABLE_VENUES: readonly string[] = [...CCXT_VENUES, SIMULATED_VENUE_ID];

/** Most connections one user may hold. */
export const MAX_CONNECTIONS_PER_USER = 20;

/** What a user sends to connect an account: the exchange and the credential fields it needs. */
export interface ConnectInput {
  exchange_id: string;
  label?: string | null;
  apiKey?: string;
  secret?: string;
  password?: string;
  walletAddress?: string;
}

/** A connection as the API shows it (the contract's `UserConnection`): never its credentials. */
export type UserConnectionView = UserConnection;

function isSimulatedVenue(market: MarketData): market is SimulatedVenue {
  const m = market as Partial<SimulatedVenue>;
  return typeof m.priceAt === 'function' && typeof m.fundingRateAt === 'function' && m.universe !== undefined;
}

/** The simulated venue of demo accounts when the app's own market is real, made once asked for. */
const DEMO_VENUE = stateKey('demo venue', () => ({ venue: null as SimulatedVenue | null }));

/** The simulated venue demo accounts read: the app's market when it is simulated, else one on the app's clock. */
function simulatedVenueOf(deps: AppDeps): SimulatedVenue {
  const market = marketOf(deps);
  if (isSimulatedVenue(market)) return market;
  const held = stateOf(deps, DEMO_VENUE);
  held.venue ??= createSimulatedVenue({ now: deps.now });
  return held.venue;
}

/** Opens a connection's account: `deps.accountFor`, else the simulated demo account or a ccxt client. */
export async function accountFor(
  deps: AppDeps,
  connection: AccountConnection,
  credentials: VenueCredentials,
): Promise<AccountData> {
  if (deps.accountFor !== undefined) return deps.accountFor(connection, credentials);
  if (connection.venue === SIMULATED_VENUE_ID) {
    return createSimulatedAccount(simulatedVenueOf(deps), { connection: connection.id });
  }
  return createCcxtAccountData({ venue: connection.venue, connection: connection.id, credentials, now: deps.now });
}

/** Opens a stored connection's account with its decrypted credentials; also returns the secrets to redact. */
export async function openConnection(
  deps: AppDeps,
  connection: ConnectionRecord,
): Promise<{ account: AccountData; secrets: string[] }> {
  const credentials = openCredentials(deps, connection.id, connection.credentials);
  const account = await accountFor(deps, connection, credentials);
  return { account, secrets: secretsOf(credentials) };
}

/** The credential values a message must never show (a wallet address is public, but is hidden too). */
export function secretsOf(credentials: VenueCredentials): string[] {
  return Object.values(credentials).filter((v): v is string => typeof v === 'string' && v.length >= 4);
}

/** `text` with every credential value replaced by `***` (venue messages sometimes echo a key). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/** Runs `work` but gives up after `ms` with a `timeout` VenueError (the venue call itself is abandoned). */
export function withTimeout<T>(work: Promise<T>, ms: number, venue: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new VenueError('timeout', `${venue} did not answer within ${ms} ms`, { venue })),
      ms,
    );
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** The credential fields of the input, as given (blank ones included: the venue check reports them). */
function givenCredentials(input: ConnectInput): VenueCredentials {
  const out: VenueCredentials = {};
  if (input.apiKey !== undefined) out.apiKey = input.apiKey;
  if (input.secret !== undefined) out.secret = input.secret;
  if (input.password !== undefined) out.password = input.password;
  if (input.walletAddress !== undefined) out.walletAddress = input.walletAddress;
  return out;
}

/** The longest credential field accepted: venue keys, secrets and passphrases are far shorter. */
export const MAX_CREDENTIAL_LENGTH = 1024;

/** Whether `value` holds a control character (below space, or DEL): CR, LF, NUL, tab and the rest. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A PEM private key (Coinbase API keys are EC keys in PEM): base64 lines between its BEGIN and END
 * lines. The only line breaks a credential may hold, and in the secret only.
 */
const PEM_KEY =
  /^-----BEGIN [A-Z ]{1,40}-----\r?\n(?:[A-Za-z0-9+/=]{1,80}\r?\n){1,100}-----END [A-Z ]{1,40}-----(?:\r?\n)?$/;

/**
 * Refuses every given credential field (whatever the venue) holding a control character (a PEM
 * key's line breaks in the secret aside) or longer than {@link MAX_CREDENTIAL_LENGTH}, naming the
 * field only: a key travels in HTTP headers and a CR/LF there could split them, and nothing that
 * long is a real credential. Runs before any venue call.
 */
function refuseUnsafeCredentials(given: VenueCredentials): void {
  const fields = Object.entries(given) as [string, unknown][];
  const unsafe = (field: string, value: unknown) =>
    typeof value === 'string' && hasControlCharacter(value) && !(field === 'secret' && PEM_KEY.test(value));
  const controls = fields.filter(([f, v]) => unsafe(f, v)).map(([f]) => f);
  if (controls.length > 0) {
    throw new AppError(
      'InvalidConnectionCredentials',
      `Invalid credentials: ${controls.join(', ')} (control characters, line breaks included, are not allowed)`,
    );
  }
  const long = fields.filter(([, v]) => typeof v === 'string' && v.length > MAX_CREDENTIAL_LENGTH).map(([f]) => f);
  if (long.length > 0) {
    throw new AppError(
      'InvalidConnectionCredentials',
      `Invalid credentials: ${long.join(', ')} (at most ${MAX_CREDENTIAL_LENGTH} characters)`,
    );
  }
}

/** Maps a venue's refusal of new credentials onto the API's errors. */
function verificationError(err: unknown, venue: string, secrets: readonly string[]): AppError {
  // Anything but a VenueError is unexpected here; its text could quote the request, so it is not passed on.
  if (!(err instanceof VenueError)) {
    return new AppError('ServiceUnavailable', `${venue} could not be reached to verify the credentials; retry later`);
  }
  const message = redact(err.message, secrets);
  switch (err.code) {
    case 'invalid_credentials':
      return new AppError('InvalidConnectionCredentials', message);
    case 'authentication_failed':
    case 'bad_request':
    case 'not_supported':
    case 'unknown_asset':
    case 'unknown_market':
      return new AppError('VenueCredentialsRejected', message);
    default:
      return new AppError(
        'ServiceUnavailable',
        `${venue} could not be reached to verify the credentials; retry later (${message})`,
        err.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.ceil(err.retryAfterMs / 1000)) },
      );
  }
}

/**
 * Connects an account: the address must be verified where that is required (403), no credential
 * field may hold a control character or exceed 1,024
 * characters, the exchange must be connectable (404 otherwise), its credential fields present
 * ('Invalid credentials: ...', 400) and a wallet address well-formed, all before any venue call; then the venue must accept the credentials (422 with the venue's message; 503 when it
 * cannot be reached). The credentials are stored encrypted and a first sync is requested.
 */
export async function connectAccount(deps: AppDeps, userId: string, input: ConnectInput): Promise<UserConnectionView> {
  await requireVerifiedEmail(deps, userId);
  const venue = input.exchange_id;
  let credentials: VenueCredentials = {};
  refuseUnsafeCredentials(givenCredentials(input));
  if (venue !== SIMULATED_VENUE_ID) {
    if (!isCcxtVenue(venue)) {
      throw new AppError(
        'UnknownExchange',
        `Unknown exchange '${venue}' (connectable: ${CONNECTABLE_VENUES.join(', ')})`,
      );
    }
    try {
      credentials = checkVenueCredentials(venue, givenCredentials(input));
    } catch (err) {
      throw verificationError(err, venue, secretsOf(givenCredentials(input)));
    }
  }
  const existing = await deps.storage.connections.byUser(userId);
  if (existing.length >= MAX_CONNECTIONS_PER_USER) {
    throw new AppError('ConnectionLimitExceeded', `At most ${MAX_CONNECTIONS_PER_USER} connections per account`);
  }
  const secrets = secretsOf(credentials);
  if (venue !== SIMULATED_VENUE_ID) {
    const verify =
      deps.verifyCredentials ??
      ((v: string, c: VenueCredentials) => verifyCcxtCredentials({ venue: v, credentials: c, now: deps.now }));
    try {
      await withTimeout(verify(venue, credentials), deps.config.sync.callTimeoutMs, venue);
    } catch (err) {
      throw verificationError(err, venue, secrets);
    }
  }
  const id = randomUUID();
  const now = deps.now();
  const record: ConnectionRecord = {
    id,
    user_id: userId,
    venue,
    label: input.label ?? null,
    credentials: encryptCredentials(credentialsKeyOf(deps), id, credentials),
    created_at: now,
    last_sync_at: null,
    last_success_at: null,
    last_error: null,
    failures: 0,
    next_sync_at: now,
    fills_synced_until: null,
    fills_cursor: null,
    fills_cursor_since: null,
    fills_cursor_until: null,
    protective_levels_synced_at: null,
  };
  await deps.storage.connections.create(record);
  deps.requestSync?.(id);
  return connectionWire(record, []);
}

/** The user's connections, oldest first, each with its open positions and sync state. */
export async function listConnections(deps: AppDeps, userId: string): Promise<UserConnectionView[]> {
  const connections = await deps.storage.connections.byUser(userId);
  return Promise.all(
    connections.map(async (c) => connectionWire(c, await deps.storage.positions.openByConnection(c.id))),
  );
}
