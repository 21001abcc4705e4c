import type { PublicShape } from '../platform/deps.js';
import type { SessionCache } from './session-cache.js';

// The auth feature's slice of the server's configuration and collaborators (see `MarketlensServer`
// in platform/deps.ts); the verification mail's slice is in verification/config.ts.
declare global {
  namespace MarketlensServer {
    interface Config {
      /** OAuth clients one account may have approved (default `MAX_CLIENTS_PER_ACCOUNT`, 25); tests of the protocol raise it. */
      oauthClientsPerAccount?: number;
    }
    interface Deps {
      /** Resolved sessions, briefly (createApp gives each app its own when absent; none: always storage). */
      sessionCache?: PublicShape<SessionCache>;
    }
  }
}
