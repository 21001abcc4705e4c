import type { AccountData, VenueCredentials } from '@marketlens/exchanges';
import { DEFAULT_CONFIG } from '../platform/deps.js';
import { type SettingsGroup, setting } from '../platform/settings.js';

/** How connected accounts are synced. */
export interface SyncConfig {
  /** Time between two syncs of one connection after a success. */
  intervalMs: number;
  /** How often the scheduler looks for due connections. */
  pollMs: number;
  /** Connections synced at the same time, at most. */
  concurrency: number;
  /** A venue call slower than this fails the sync with a timeout (and backs off). */
  callTimeoutMs: number;
  /** Backoff after failures: base delay, doubled per consecutive failure (with jitter) up to the cap. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** What opening a connection's account needs to know about it. */
export interface AccountConnection {
  /** The user_connection_id. */
  id: string;
  user_id: string;
  /** The exchange id. */
  venue: string;
}

// The accounts feature's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** The background sync of connected exchange accounts (accounts/sync). */
      sync: SyncConfig;
    }
    interface Deps {
      /**
       * The AES-256-GCM key (32 bytes) connection credentials are encrypted with; absent: a random key
       * for this app's lifetime (tests, in-memory storage). server.ts passes the configured one.
       */
      credentialsKey?: Uint8Array;
      /**
       * The key credentials were encrypted with before a rotation (`MARKETLENS_SECRET_KEY_PREVIOUS`):
       * a stored blob that does not open with {@link credentialsKey} is tried with it, until
       * `marketlens admin key rotate` has re-encrypted every one.
       */
      previousCredentialsKey?: Uint8Array;
      /**
       * Opens the private data of a stored connection with its decrypted credentials; absent: the
       * simulated venue's demo account, or a ccxt client (`createCcxtAccountData`). Tests point ccxt at
       * a local venue server here.
       */
      accountFor?: (connection: AccountConnection, credentials: VenueCredentials) => AccountData | Promise<AccountData>;
      /**
       * Checks credentials against the venue before they are stored; absent: `verifyCcxtCredentials`
       * for ccxt venues, nothing for the simulated venue. Rejects with a `VenueError`.
       */
      verifyCredentials?: (venue: string, credentials: VenueCredentials) => Promise<void>;
      /** Asks the background sync to sync a connection now (after it is created); absent: it waits for its turn. */
      requestSync?: (connectionId: string) => void;
    }
  }
}

/**
 * MARKETLENS_SYNC_INTERVAL_MS (time between syncs of a connection, default 5 min) and
 * MARKETLENS_SYNC_POLL_MS / _CONCURRENCY / _CALL_TIMEOUT_MS / _BACKOFF_BASE_MS / _BACKOFF_MAX_MS.
 */
function syncFromEnv(env: NodeJS.ProcessEnv): SyncConfig {
  const d = DEFAULT_CONFIG.sync;
  const read = (name: string, fallback: number, min: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
    return n;
  };
  return {
    intervalMs: read('MARKETLENS_SYNC_INTERVAL_MS', d.intervalMs, 1000),
    pollMs: read('MARKETLENS_SYNC_POLL_MS', d.pollMs, 10),
    concurrency: read('MARKETLENS_SYNC_CONCURRENCY', d.concurrency, 1),
    callTimeoutMs: read('MARKETLENS_SYNC_CALL_TIMEOUT_MS', d.callTimeoutMs, 100),
    backoffBaseMs: read('MARKETLENS_SYNC_BACKOFF_BASE_MS', d.backoffBaseMs, 10),
    backoffMaxMs: read('MARKETLENS_SYNC_BACKOFF_MAX_MS', d.backoffMaxMs, 10),
  };
}

/** The accounts feature's settings: the background sync of connected accounts (MARKETLENS_SYNC_*). */
export const ACCOUNTS_SETTINGS: SettingsGroup = {
  owner: 'accounts/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('syncIntervalMs', 'MARKETLENS_SYNC_INTERVAL_MS', 'integer', '300000', 'time between two syncs of a connected account'),
    setting('syncPollMs', 'MARKETLENS_SYNC_POLL_MS', 'integer', '5000', 'how often the sync looks for due connections'),
    setting('syncConcurrency', 'MARKETLENS_SYNC_CONCURRENCY', 'integer', '4', 'connections synced at once'),
    setting('syncCallTimeoutMs', 'MARKETLENS_SYNC_CALL_TIMEOUT_MS', 'integer', '30000', 'a venue call of a sync slower than this fails'),
    setting('syncBackoffBaseMs', 'MARKETLENS_SYNC_BACKOFF_BASE_MS', 'integer', '30000', 'first backoff after a failed sync'),
    setting('syncBackoffMaxMs', 'MARKETLENS_SYNC_BACKOFF_MAX_MS', 'integer', '3600000', 'longest backoff'),
  ],
  read: (env) => ({ sync: syncFromEnv(env) }),
};
