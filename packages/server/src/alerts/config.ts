import type { PushTransport } from './push/transport.js';

/** Web Push delivery settings. */
export interface PushConfig {
  /** VAPID keys (env `MARKETLENS_VAPID_PUBLIC_KEY` / `_PRIVATE_KEY` / `_SUBJECT`); null: generated once, kept in storage. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** Accept `http://` subscription endpoints (a local push service in tests); real push services are https. */
  allowInsecureEndpoints: boolean;
}

// The alerts feature's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** Web Push (alerts/push); absent: generated VAPID keys kept in storage, https endpoints only. */
      push?: PushConfig;
    }
    interface Deps {
      /** Sends one Web Push request (alerts/push); absent: `fetch`. */
      pushTransport?: PushTransport;
    }
  }
}
