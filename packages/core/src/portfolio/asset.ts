/**
 * Asset classes: `coins`, `stocks`, `fx`, and `external` for on-chain assets.
 * `stocks` and `fx` are the service contract's own values; `coins` and `external` are the
 * product's (DESIGN.md).
 */
export type AssetClass = 'coins' | 'stocks' | 'fx' | 'external';

/**
 * The tracked asset a venue instrument or currency maps to, as positions, balances and orders carry it
 * (contract sections 2.5 to 2.7). Core passes it through untouched; null means "maps to no tracked asset".
 */
export interface AssetRef {
  /** `bitcoin`, `stock-aapl`, `fx-eurusd`, ... */
  id: string;
  symbol: string;
  name: string;
  icon: string | null;
  asset_class: AssetClass;
}
