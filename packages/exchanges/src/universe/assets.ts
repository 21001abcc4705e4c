import type { AssetClass } from '../ports.js';
import { iconFor } from './icon.js';

/** An asset marketlens tracks: a coin, a stock, an fx pair or an on-chain token. */
export interface Asset {
  /** Coins: lowercase slug (`bitcoin`); stocks `stock-aapl`; fx `fx-eurusd`; on-chain `onchain-<chain>-<slug>`. */
  id: string;
  /** Display symbol, uppercase (`BTC`, `AAPL`, `EURUSD`). */
  symbol: string;
  name: string;
  /** A local path or a `data:` URI; never a remote URL. */
  icon: string;
  asset_class: AssetClass;
  /** True for coins pegged to a fiat currency (USDT, USDC, DAI, ...). */
  is_stablecoin: boolean;
}

/** How an asset is declared: its record plus what instrument mapping needs. */
export interface AssetDefinition {
  id: string;
  symbol: string;
  name: string;
  asset_class: AssetClass;
  is_stablecoin?: boolean;
  /** Icon override; a generated SVG data URI otherwise. */
  icon?: string;
  /**
   * Other currency codes venues use for this asset (`XBT` for bitcoin). Matched case-normalized.
   * Only codes that cannot mean anything else belong here.
   */
  aliases?: readonly string[];
  /** For fx pairs: the base and quote currency codes (`['EUR', 'USD']`). */
  fx?: readonly [string, string];
}

const coin = (id: string, symbol: string, name: string, extra: Partial<AssetDefinition> = {}): AssetDefinition => ({
  id,
  symbol,
  name,
  asset_class: 'coins',
  ...extra,
});
const stable = (id: string, symbol: string, name: string): AssetDefinition =>
  coin(id, symbol, name, { is_stablecoin: true });
const stock = (ticker: string, name: string): AssetDefinition => ({
  id: `stock-${ticker.toLowerCase()}`,
  symbol: ticker,
  name,
  asset_class: 'stocks',
});
const fx = (base: string, quote: string, name: string): AssetDefinition => ({
  id: `fx-${(base + quote).toLowerCase()}`,
  symbol: base + quote,
  name,
  asset_class: 'fx',
  fx: [base, quote],
});

/**
 * The built-in universe: about 55 coins (stablecoins among them), 22 stocks, 10 fx pairs and two
 * on-chain tokens. Coin ids follow CoinGecko's slugs so they stay recognisable.
 */
export const BUILTIN_ASSETS: readonly AssetDefinition[] = [
  coin('bitcoin', 'BTC', 'Bitcoin', { aliases: ['XBT', 'XXBT'] }),
  coin('ethereum', 'ETH', 'Ethereum', { aliases: ['XETH'] }),
  stable('tether', 'USDT', 'Tether'),
  coin('binancecoin', 'BNB', 'BNB'),
  coin('solana', 'SOL', 'Solana'),
  stable('usd-coin', 'USDC', 'USDC'),
  coin('ripple', 'XRP', 'XRP', { aliases: ['XXRP'] }),
  coin('dogecoin', 'DOGE', 'Dogecoin', { aliases: ['XDG', 'XXDG'] }),
  coin('cardano', 'ADA', 'Cardano'),
  coin('tron', 'TRX', 'TRON'),
  coin('avalanche-2', 'AVAX', 'Avalanche'),
  coin('chainlink', 'LINK', 'Chainlink'),
  coin('the-open-network', 'TON', 'Toncoin'),
  coin('shiba-inu', 'SHIB', 'Shiba Inu'),
  coin('polkadot', 'DOT', 'Polkadot'),
  coin('bitcoin-cash', 'BCH', 'Bitcoin Cash'),
  coin('litecoin', 'LTC', 'Litecoin', { aliases: ['XLTC'] }),
  coin('near', 'NEAR', 'NEAR Protocol'),
  coin('uniswap', 'UNI', 'Uniswap'),
  stable('dai', 'DAI', 'Dai'),
  coin('internet-computer', 'ICP', 'Internet Computer'),
  coin('aptos', 'APT', 'Aptos'),
  coin('ethereum-classic', 'ETC', 'Ethereum Classic', { aliases: ['XETC'] }),
  coin('stellar', 'XLM', 'Stellar', { aliases: ['XXLM'] }),
  coin('monero', 'XMR', 'Monero', { aliases: ['XXMR'] }),
  coin('cosmos', 'ATOM', 'Cosmos Hub'),
  coin('filecoin', 'FIL', 'Filecoin'),
  coin('hedera-hashgraph', 'HBAR', 'Hedera'),
  coin('arbitrum', 'ARB', 'Arbitrum'),
  coin('optimism', 'OP', 'Optimism'),
  coin('sui', 'SUI', 'Sui'),
  coin('pepe', 'PEPE', 'Pepe'),
  coin('injective-protocol', 'INJ', 'Injective'),
  coin('render-token', 'RENDER', 'Render'),
  coin('aave', 'AAVE', 'Aave'),
  coin('maker', 'MKR', 'Maker'),
  coin('the-graph', 'GRT', 'The Graph'),
  coin('algorand', 'ALGO', 'Algorand'),
  coin('vechain', 'VET', 'VeChain'),
  coin('tezos', 'XTZ', 'Tezos'),
  coin('kaspa', 'KAS', 'Kaspa'),
  coin('sei-network', 'SEI', 'Sei'),
  coin('celestia', 'TIA', 'Celestia'),
  coin('bonk', 'BONK', 'Bonk'),
  coin('dogwifcoin', 'WIF', 'dogwifhat'),
  coin('floki', 'FLOKI', 'FLOKI'),
  stable('first-digital-usd', 'FDUSD', 'First Digital USD'),
  stable('ethena-usde', 'USDE', 'Ethena USDe'),
  coin('hyperliquid', 'HYPE', 'Hyperliquid'),
  coin('ondo-finance', 'ONDO', 'Ondo'),
  coin('worldcoin-wld', 'WLD', 'Worldcoin'),
  coin('immutable-x', 'IMX', 'Immutable'),
  coin('stacks', 'STX', 'Stacks'),
  coin('mantle', 'MNT', 'Mantle'),
  coin('bittensor', 'TAO', 'Bittensor'),
  stock('AAPL', 'Apple Inc.'),
  stock('MSFT', 'Microsoft Corporation'),
  stock('NVDA', 'NVIDIA Corporation'),
  stock('TSLA', 'Tesla, Inc.'),
  stock('AMZN', 'Amazon.com, Inc.'),
  stock('GOOGL', 'Alphabet Inc.'),
  stock('META', 'Meta Platforms, Inc.'),
  stock('NFLX', 'Netflix, Inc.'),
  stock('AMD', 'Advanced Micro Devices, Inc.'),
  stock('INTC', 'Intel Corporation'),
  stock('ORCL', 'Oracle Corporation'),
  stock('JPM', 'JPMorgan Chase & Co.'),
  stock('DIS', 'The Walt Disney Company'),
  stock('BABA', 'Alibaba Group'),
  stock('SPY', 'SPDR S&P 500 ETF'),
  stock('QQQ', 'Invesco QQQ Trust'),
  stock('COIN', 'Coinbase Global, Inc.'),
  stock('MSTR', 'Strategy Inc.'),
  stock('HOOD', 'Robinhood Markets, Inc.'),
  stock('PLTR', 'Palantir Technologies Inc.'),
  stock('CRCL', 'Circle Internet Group'),
  stock('GME', 'GameStop Corp.'),
  fx('EUR', 'USD', 'Euro / US Dollar'),
  fx('GBP', 'USD', 'British Pound / US Dollar'),
  fx('USD', 'JPY', 'US Dollar / Japanese Yen'),
  fx('AUD', 'USD', 'Australian Dollar / US Dollar'),
  fx('USD', 'CAD', 'US Dollar / Canadian Dollar'),
  fx('USD', 'CHF', 'US Dollar / Swiss Franc'),
  fx('NZD', 'USD', 'New Zealand Dollar / US Dollar'),
  fx('EUR', 'GBP', 'Euro / British Pound'),
  fx('EUR', 'JPY', 'Euro / Japanese Yen'),
  fx('GBP', 'JPY', 'British Pound / Japanese Yen'),
  { id: 'onchain-base-brett', symbol: 'BRETT', name: 'Brett (Base)', asset_class: 'external' },
  { id: 'onchain-solana-popcat', symbol: 'POPCAT', name: 'Popcat (Solana)', asset_class: 'external' },
];

/** The public record of a definition (the icon generated when not given). */
export function toAsset(def: AssetDefinition): Asset {
  return {
    id: def.id,
    symbol: def.symbol,
    name: def.name,
    icon: def.icon ?? iconFor(def.id, def.symbol, def.asset_class),
    asset_class: def.asset_class,
    is_stablecoin: def.is_stablecoin ?? false,
  };
}
