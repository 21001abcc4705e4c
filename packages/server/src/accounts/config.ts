import type { AccountData, VenueCredentials } from '@marketlens/exchanges';

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
