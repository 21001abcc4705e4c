/** The shape of one row of the exchange catalog (the rows are generated into `data.ts`). */
import type { Capability } from '../ccxt/capability.js';
import type { CredentialField } from '../ccxt/venues.js';

/** The read methods whose availability the catalog reports, by marketlens name. */
export type CatalogMethod =
  | 'positions'
  | 'balances'
  | 'trades'
  | 'open_orders'
  | 'funding_history'
  | 'candles'
  | 'ticker'
  | 'funding_rate';

/** Where an API-key guide link comes from. */
export type GuideSource = 'ccxt' | 'curated';

/** One venue of the catalog. */
export interface ExchangeCatalogEntry {
  /** Venue id (the ccxt id for real venues; `marketlens-sim` for the simulated venue). */
  id: string;
  name: string;
  /** A local SVG monogram as a `data:` URI; never a remote URL. */
  icon: string;
  website_url: string | null;
  /** Sign-up link with a referral code, from ccxt's `urls.referral` (ccxt's own codes); null when none. */
  affiliate_url: string | null;
  /** How to create a read-only API key (or, for a wallet venue, where the API is described). */
  api_key_guide_url: string | null;
  /** `ccxt`: ccxt's `urls.api_management` or `urls.doc`; `curated`: a page chosen by marketlens. */
  api_key_guide_source: GuideSource | null;
  /** Lists spot markets. */
  spot: boolean;
  /** Lists perpetual swaps or dated futures. */
  futures: boolean;
  /** Credential fields a read-only connection asks for (empty: nothing to connect). */
  credentials: readonly CredentialField[];
  /** ccxt's tri-state `has` for each read marketlens makes. */
  capabilities: Readonly<Record<CatalogMethod, Capability>>;
  /** True for the built-in simulated venue. */
  simulated: boolean;
}
