import type { AssetRef } from './asset.js';
import { checkArray, type Dec, dec, decSum, fieldsOf, toNum } from './internal.js';

/**
 * One currency balance of one account as a venue adapter reads it. Amounts are in units of the
 * currency; `usd_price` is its USD price (1 for USD stablecoins), null when it cannot be priced.
 */
export interface BalanceInput {
  /** The user's connected account. */
  user_connection_id: string;
  /** The exchange id. */
  connection_id: string;
  /** The venue's account inside the connection (`spot`, `futures`, `funding`, ...). */
  account: string;
  /** The venue's currency code, any case (`btc`, `USDT`). */
  symbol: string;
  /** The tracked asset the currency resolves to; null when none. */
  asset: AssetRef | null;
  /** Total amount (available + frozen). May be negative on margin accounts (a debt). */
  total: number;
  /** Free amount; derived as `total - frozen` when only `frozen` is given. */
  available?: number | null;
  /** Amount held by open orders, loans or locks; derived as `total - available` when only `available` is given. */
  frozen?: number | null;
  /** USD per unit; null, zero or negative when unpriced. */
  usd_price: number | null;
}

/** A balance on the wire. `*_usd` and `percentage_of_total` are null when unpriced, never 0. */
export interface Balance {
  user_connection_id: string;
  connection_id: string;
  account: string;
  /** The venue's currency code, uppercased. */
  symbol: string;
  asset: AssetRef | null;
  balance: number;
  available: number | null;
  frozen: number | null;
  usd_price: number | null;
  balance_usd: number | null;
  available_usd: number | null;
  frozen_usd: number | null;
  /** `balance_usd / total_usd * 100` over the priced balances of the list; null when unpriced or the total is not positive. */
  percentage_of_total: number | null;
}

/** Balances with their total (`GET` balances routes, MCP `get_balances`). */
export interface BalanceSheet {
  /** One balance per (connection, symbol, account), in order of first appearance. */
  balances: Balance[];
  /** Exact sum of `balance_usd` over priced balances; null when balances exist but none is priced, 0 for none. */
  total_usd: number | null;
  priced_count: number;
  unpriced_count: number;
}

/** The key a balance is unique on: (user_connection_id, uppercased symbol, account). */
function keyOf(connection: string, symbol: string, account: string): string {
  return `${connection}\u0000${symbol}\u0000${account}`;
}

/**
 * Normalizes venue balances: the symbol is uppercased (trimmed), balances are
 * keyed on (user_connection_id, symbol, account) with case-normalized symbol matching, so `btc` and `BTC`
 * of one account are one balance; when a key repeats, the later row replaces the earlier one (a re-read
 * is an upsert, never a double count), keeping the first row's place in the list.
 *
 * USD figures are `amount * usd_price`, computed exactly in decimal (decimal.js) and rounded once with
 * `toNumber()`; null when unpriced (never 0). `percentage_of_total` is each priced balance's share of the
 * exact sum of the priced `balance_usd` (computed from the exact products, so the shares sum to 100 up to
 * the final rounding); null for unpriced balances and when that sum is not positive.
 * @throws InputError on a malformed record (missing strings, NaN or Infinity in a number).
 */
export function normalizeBalances(balances: readonly BalanceInput[]): BalanceSheet {
  checkArray(balances, 'balances');
  interface Row {
    out: Balance;
    exact: Dec | null;
  }
  const rows = new Map<string, Row>();
  balances.forEach((b, i) => {
    const f = fieldsOf(b, 'balances', i);
    const connection = f.string('user_connection_id');
    const symbol = f.string('symbol').trim().toUpperCase();
    if (symbol.length === 0) f.fail('symbol', 'must not be blank');
    const account = f.string('account');
    const total = f.number('total');
    let available = f.numberOrNull('available');
    let frozen = f.numberOrNull('frozen');
    if (available === null && frozen !== null) available = toNum(dec(total).minus(frozen));
    else if (frozen === null && available !== null) frozen = toNum(dec(total).minus(available));
    const price = f.positiveOrNull('usd_price');
    const raw = b as unknown as Record<string, unknown>;
    const asset = raw.asset ?? null;
    if (asset !== null && (typeof asset !== 'object' || typeof (asset as AssetRef).id !== 'string')) {
      f.fail('asset', 'must be an asset object with a string id, or null');
    }
    const usd = (x: number | null): Dec | null => (x === null || price === null ? null : dec(x).times(price));
    const exact = usd(total);
    const num = (d: Dec | null): number | null => (d === null ? null : toNum(d));
    const out: Balance = {
      user_connection_id: connection,
      connection_id: f.string('connection_id'),
      account,
      symbol,
      asset: asset as AssetRef | null,
      balance: total,
      available,
      frozen,
      usd_price: price,
      balance_usd: num(exact),
      available_usd: num(usd(available)),
      frozen_usd: num(usd(frozen)),
      percentage_of_total: null,
    };
    const key = keyOf(connection, symbol, account);
    const previous = rows.get(key);
    if (previous === undefined) rows.set(key, { out, exact });
    else {
      previous.out = out;
      previous.exact = exact;
    }
  });
  const list = [...rows.values()];
  const priced = list.filter((r) => r.exact !== null);
  let sum = dec(0);
  for (const r of priced) if (r.exact !== null) sum = sum.plus(r.exact);
  if (sum.greaterThan(0)) {
    for (const r of priced) if (r.exact !== null) r.out.percentage_of_total = toNum(r.exact.div(sum).times(100));
  }
  const out = list.map((r) => r.out);
  return {
    balances: out,
    total_usd: out.length > 0 && priced.length === 0 ? null : toNum(decSum(priced.map((r) => r.out.balance_usd ?? 0))),
    priced_count: priced.length,
    unpriced_count: list.length - priced.length,
  };
}
