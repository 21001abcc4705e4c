import { checkArray, type Dec, dec, fieldsOf, iso, toNum } from './internal.js';

/** Side of a fill or order. */
export type OrderSide = 'buy' | 'sell';

/** One fill (execution) as a venue adapter reads it. Times in ms since the epoch (UTC). */
export interface FillInput {
  /** The venue's fill id; unique per connected account. */
  external_id: string;
  /** The user's connected account. */
  user_connection_id: string;
  /** The exchange id. */
  connection_id: string;
  /** The venue's order id; null when the venue does not attribute the fill to an order. */
  order_id: string | null;
  /** The venue's native instrument name. */
  pair: string;
  /** Internal asset id; null when the pair resolves to no asset. */
  asset_id: string | null;
  side: OrderSide;
  /** Execution price, positive. */
  price: number;
  /** Executed size, positive. */
  size: number;
  /** Fee charged (negative for a rebate); null when not reported. */
  fee: number | null;
  fee_currency: string | null;
  /** Realized PnL the venue reports for the fill; null when not reported (spot fills). */
  pnl: number | null;
  executed_at: number;
}

/** A fill on the wire (`GET /v1/trades`). */
export interface Trade {
  external_id: string;
  user_connection_id: string;
  connection_id: string;
  order_id: string | null;
  pair: string;
  /** Null when the pair resolves to no asset. */
  asset_id: string | null;
  /** Deprecated alias of `asset_id`, identical value. */
  coin_id: string | null;
  side: OrderSide;
  price: number;
  size: number;
  fee: number | null;
  /** Uppercased. */
  fee_currency: string | null;
  pnl: number | null;
  /** ISO 8601 UTC. */
  executed_at: string;
}

/** An order aggregated from its fills (`GET /v1/orders`). */
export interface OrderExtended {
  /** The venue order id, or the fill's `external_id` for a fill attributed to no order. */
  id: string;
  /** The venue order id; null for a fill attributed to no order (then the order is that one fill). */
  order_id: string | null;
  user_connection_id: string;
  connection_id: string;
  pair: string;
  asset_id: string | null;
  /** Deprecated alias of `asset_id`, identical value. */
  coin_id: string | null;
  side: OrderSide;
  /** Size-weighted average fill price: `sum(price * size) / sum(size)`. */
  price: number;
  /** Summed fill size. */
  size: number;
  /** Summed fee; null when a fill does not report one or the fills' fee currencies differ. */
  fee: number | null;
  /** The fills' common fee currency; null when none is reported or they differ. */
  fee_currency: string | null;
  /** Summed realized PnL; null when a fill does not report it. */
  pnl: number | null;
  fills_count: number;
  first_fill_at: string;
  last_fill_at: string;
  /** The constituent fills, oldest first. */
  fills: Trade[];
}

const SIDES: readonly OrderSide[] = ['buy', 'sell'];

interface ParsedFill {
  trade: Trade;
  time: number;
}

function parseFill(fill: FillInput, index: number): ParsedFill {
  const f = fieldsOf(fill, 'fills', index);
  const price = f.number('price');
  if (!(price > 0)) f.fail('price', `must be positive, got ${price}`);
  const size = f.number('size');
  if (!(size > 0)) f.fail('size', `must be positive, got ${size}`);
  const assetId = f.stringOrNull('asset_id');
  const feeCurrency = f.stringOrNull('fee_currency');
  const time = f.time('executed_at');
  return {
    time,
    trade: {
      external_id: f.string('external_id'),
      user_connection_id: f.string('user_connection_id'),
      connection_id: f.string('connection_id'),
      order_id: f.stringOrNull('order_id'),
      pair: f.string('pair'),
      asset_id: assetId,
      coin_id: assetId,
      side: f.choice('side', SIDES),
      price,
      size,
      fee: f.numberOrNull('fee'),
      fee_currency: feeCurrency === null ? null : feeCurrency.toUpperCase(),
      pnl: f.numberOrNull('pnl'),
      executed_at: iso(time),
    },
  };
}

function byTime(a: ParsedFill, b: ParsedFill): number {
  return (
    a.time - b.time ||
    compare(a.trade.external_id, b.trade.external_id) ||
    compare(a.trade.user_connection_id, b.trade.user_connection_id)
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function dedupe(fills: readonly FillInput[]): ParsedFill[] {
  checkArray(fills, 'fills');
  const seen = new Map<string, ParsedFill>();
  fills.forEach((fill, i) => {
    const parsed = parseFill(fill, i);
    // (external_id, user_connection_id) is unique: a re-read replaces, never duplicates.
    seen.set(`${parsed.trade.user_connection_id}\u0000${parsed.trade.external_id}`, parsed);
  });
  return [...seen.values()].sort(byTime);
}

/**
 * Fills on the wire, deduplicated on (external_id, user_connection_id): re-reading
 * a window never duplicates a fill; the later copy of a repeated fill replaces the earlier one. Sorted
 * newest first (ties by `external_id`). `coin_id` repeats `asset_id`.
 * @throws InputError on a malformed fill (missing ids, side not buy/sell, price or size not positive,
 * NaN or Infinity).
 */
export function tradesFromFills(fills: readonly FillInput[]): Trade[] {
  return dedupe(fills)
    .reverse()
    .map((p) => p.trade);
}

/**
 * Aggregates fills into orders (`OrderExtended`). Fills are first deduplicated as in
 * {@link tradesFromFills}; then grouped by (user_connection_id, order_id, side): one venue order has one
 * side, so fills of one order id that disagree on the side (a venue data error) make two orders rather
 * than a netted one. A fill with no order id is an order of its own. Per order:
 * side; size = sum of sizes; price = `sum(price * size) / sum(size)`; fee = sum of fees (null when a
 * fill reports none or the fee currencies differ); pnl = sum of pnl (null when a fill reports none); and
 * the fills, oldest first. Sums are exact in decimal (decimal.js); the average divides at 60 significant
 * digits; each figure is then rounded once to a double (`toNumber()`).
 *
 * Orders come newest first (by last fill, ties by connection and id). The result does not depend on the
 * order of the input, and reading the same fills twice gives the same orders.
 */
export function ordersFromFills(fills: readonly FillInput[]): OrderExtended[] {
  const groups = new Map<string, ParsedFill[]>();
  for (const p of dedupe(fills)) {
    const t = p.trade;
    const key =
      t.order_id === null
        ? `fill\u0000${t.user_connection_id}\u0000${t.external_id}`
        : `order\u0000${t.user_connection_id}\u0000${t.order_id}\u0000${t.side}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [p]);
    else group.push(p);
  }
  const orders: { order: OrderExtended; last: number }[] = [];
  for (const group of groups.values()) {
    const first = group[0];
    const last = group[group.length - 1];
    let size = dec(0);
    let notional = dec(0);
    let fee: Dec | null = dec(0);
    let pnl: Dec | null = dec(0);
    const currencies = new Set<string | null>();
    for (const { trade } of group) {
      size = size.plus(trade.size);
      notional = notional.plus(dec(trade.price).times(trade.size));
      fee = fee === null || trade.fee === null ? null : fee.plus(trade.fee);
      pnl = pnl === null || trade.pnl === null ? null : pnl.plus(trade.pnl);
      currencies.add(trade.fee_currency);
    }
    const feeCurrency = currencies.size === 1 ? (first.trade.fee_currency ?? null) : null;
    const t = first.trade;
    orders.push({
      last: last.time,
      order: {
        id: t.order_id ?? t.external_id,
        order_id: t.order_id,
        user_connection_id: t.user_connection_id,
        connection_id: t.connection_id,
        pair: t.pair,
        asset_id: group.find((p) => p.trade.asset_id !== null)?.trade.asset_id ?? null,
        coin_id: null,
        side: t.side,
        price: toNum(notional.div(size)),
        size: toNum(size),
        fee: fee === null || currencies.size > 1 ? null : toNum(fee),
        fee_currency: feeCurrency,
        pnl: pnl === null ? null : toNum(pnl),
        fills_count: group.length,
        first_fill_at: t.executed_at,
        last_fill_at: last.trade.executed_at,
        fills: group.map((p) => p.trade),
      },
    });
  }
  for (const o of orders) o.order.coin_id = o.order.asset_id;
  orders.sort(
    (a, b) =>
      b.last - a.last ||
      compare(a.order.user_connection_id, b.order.user_connection_id) ||
      compare(a.order.id, b.order.id) ||
      compare(a.order.side, b.order.side),
  );
  return orders.map((o) => o.order);
}
