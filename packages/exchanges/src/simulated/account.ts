import { VenueError } from '../errors.js';
import type {
  AccountData,
  FillPage,
  FillRequest,
  FundingSinceOpen,
  OrderSide,
  PositionSide,
  ProtectiveOrder,
  VenueBalance,
  VenueFill,
  VenuePosition,
} from '../ports.js';
import { normal, seedOf, uniform } from './prng.js';
import type { SimulatedVenue } from './venue.js';

/** The demo instrument that maps to no tracked asset. */
const UNMAPPED = 'FARTCOIN/USDT:USDT';

/**
 * Demo positions. Each is rolled every {@link ROLL_MS}: closed and reopened at the then price, so
 * the open position, its entry and the fill history are pure functions of the clock and history
 * never changes. `FARTCOIN/USDT:USDT` maps to no tracked asset: its row is unpriced downstream.
 */
const POSITIONS: ReadonlyArray<{ pair: string; side: PositionSide; size: number; leverage: number; phaseH: number }> = [
  { pair: 'BTC/USDT:USDT', side: 'long', size: 0.25, leverage: 5, phaseH: 0 },
  { pair: 'ETH/USDT:USDT', side: 'short', size: 3, leverage: 10, phaseH: 29 },
  { pair: 'AAPLX/USDT:USDT', side: 'long', size: 12, leverage: 3, phaseH: 53 },
  { pair: 'EUR/USDT:USDT', side: 'long', size: 10_000, leverage: 20, phaseH: 77 },
  { pair: 'MSTRX/USDT:USDT', side: 'short', size: 4, leverage: 2, phaseH: 101 },
  { pair: UNMAPPED, side: 'long', size: 2_500, leverage: 5, phaseH: 125 },
];

/** Stop-loss and take-profit distances (fraction of entry) per demo pair; an absent leg is not set. */
const PROTECTION: Readonly<Record<string, { stop?: number; target?: number }>> = {
  'BTC/USDT:USDT': { stop: 0.06, target: 0.1 },
  'ETH/USDT:USDT': { stop: 0.06 },
  'AAPLX/USDT:USDT': { target: 0.08 },
};

/** Pairs of the simulated spot trading that fills the history between rolls. */
const SPOT_PAIRS = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'LINK/USDT', 'DOGE/USDT', 'AAPL/USD'];

/** Fill history starts here (Monday 2024-01-01 UTC). */
export const HISTORY_START = Date.UTC(2024, 0, 1);
/** Demo positions are closed and reopened every 14 days. */
export const ROLL_MS = 14 * 86_400_000;
const HOUR = 3_600_000;
const FUNDING_MS = 8 * HOUR;
const TRADE_SLOT_MS = 9 * HOUR;
const TAKER_FEE = 0.0005;
const MAINTENANCE = 0.005;
const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

/** Options of {@link createSimulatedAccount}. */
export interface SimulatedAccountOptions {
  /** The user connection id this account answers for. */
  connection: string;
}

interface Roll {
  index: number;
  k: number;
  opened_at: number;
  entry: number;
}

/**
 * A demo exchange account on the simulated venue: six perpetual positions (one on an instrument
 * mapping to no asset), spot and futures balances (one in a currency mapping to no asset), a fill
 * history since 2024 and protective orders. Everything follows the venue's clock.
 */
export function createSimulatedAccount(venue: SimulatedVenue, options: SimulatedAccountOptions): AccountData {
  const { connection } = options;
  const seed = seedOf(`account:${connection}`);

  function unmappedPrice(t: number): number {
    // Not listed on the venue: a small deterministic wander of its own.
    const day = Math.floor(t / 86_400_000);
    return Math.round(0.85 * Math.exp(0.15 * Math.sin(day / 9) + 0.02 * normal(seed, 91, day)) * 1e4) / 1e4;
  }

  function pairPrice(pair: string, t: number): number | null {
    return pair === UNMAPPED ? unmappedPrice(t) : venue.priceAt(pair, t);
  }

  function rollAt(index: number, t: number): Roll | null {
    const p = POSITIONS[index];
    const first = HISTORY_START + p.phaseH * HOUR;
    if (t < first) return null;
    const k = Math.floor((t - first) / ROLL_MS);
    const opened_at = first + k * ROLL_MS;
    const entry = pairPrice(p.pair, opened_at);
    return entry === null ? null : { index, k, opened_at, entry };
  }

  function fill(
    external_id: string,
    order_id: string,
    pair: string,
    side: OrderSide,
    price: number,
    amount: number,
    time: number,
    realized: number | null,
  ): VenueFill {
    const derivatives = pair.includes(':');
    return {
      connection,
      external_id,
      order_id,
      pair,
      asset_id: pair === UNMAPPED ? null : venue.universe.resolveInstrument(pair),
      market_type: derivatives ? 'derivatives' : 'spot',
      side,
      price,
      amount,
      fee: round8(price * amount * TAKER_FEE),
      fee_currency: pair.endsWith('/USD') ? 'USD' : 'USDT',
      realized_pnl: derivatives ? realized : null,
      time,
    };
  }

  /** Every fill in [from, to), oldest first. */
  function fillsBetween(from: number, to: number): VenueFill[] {
    const out: VenueFill[] = [];
    // Position rolls: the opening fill of roll k and, when roll k+1 has started, its closing fill.
    POSITIONS.forEach((p, index) => {
      const first = HISTORY_START + p.phaseH * HOUR;
      const kFrom = Math.max(0, Math.floor((from - first) / ROLL_MS) - 1);
      const last = rollAt(index, to);
      if (last === null) return;
      const open: OrderSide = p.side === 'long' ? 'buy' : 'sell';
      const close: OrderSide = p.side === 'long' ? 'sell' : 'buy';
      for (let k = kFrom; k <= last.k; k++) {
        const opened = first + k * ROLL_MS;
        const entry = pairPrice(p.pair, opened);
        if (entry === null) continue;
        const id = `${index}-${k}`;
        if (opened >= from && opened < to) {
          out.push(fill(`sim-${id}-o`, `sim-order-${id}-o`, p.pair, open, entry, p.size, opened, 0));
        }
        const closed = opened + ROLL_MS - 60_000;
        if (closed >= from && closed < to) {
          const exit = pairPrice(p.pair, closed) ?? entry;
          const pnl = round8((exit - entry) * p.size * (p.side === 'long' ? 1 : -1));
          out.push(fill(`sim-${id}-c`, `sim-order-${id}-c`, p.pair, close, exit, p.size, closed, pnl));
        }
      }
    });
    // Spot trading: one order per 9h slot, filled in one to three parts a few seconds apart.
    const nFrom = Math.max(0, Math.floor((from - HISTORY_START) / TRADE_SLOT_MS) - 1);
    const nTo = Math.floor((to - HISTORY_START) / TRADE_SLOT_MS);
    for (let n = nFrom; n <= nTo; n++) {
      const start = HISTORY_START + n * TRADE_SLOT_MS + Math.floor(uniform(seed, 1, n) * 6 * HOUR);
      const pair = SPOT_PAIRS[Math.floor(uniform(seed, 2, n) * SPOT_PAIRS.length)];
      const side: OrderSide = uniform(seed, 3, n) < 0.55 ? 'buy' : 'sell';
      const notional = 150 + Math.floor(uniform(seed, 4, n) * 1850);
      const parts = 1 + Math.floor(uniform(seed, 5, n) * 3);
      for (let j = 0; j < parts; j++) {
        const time = start + j * 7_000;
        if (time < from || time >= to) continue;
        // No fill while the market is closed (stock spot outside NYSE hours).
        const price = venue.isTrading(pair, time) ? venue.priceAt(pair, time) : null;
        if (price === null) continue;
        const amount = round8(notional / parts / price);
        out.push(fill(`sim-s${n}-${j}`, `sim-order-s${n}`, pair, side, price, amount, time, null));
      }
    }
    out.sort((a, b) => a.time - b.time || (a.external_id < b.external_id ? -1 : 1));
    return out;
  }

  function openPositions(t: number): Array<{ roll: Roll; spec: (typeof POSITIONS)[number] }> {
    const out: Array<{ roll: Roll; spec: (typeof POSITIONS)[number] }> = [];
    POSITIONS.forEach((spec, index) => {
      const roll = rollAt(index, t);
      if (roll !== null) out.push({ roll, spec });
    });
    return out;
  }

  function margin(spec: (typeof POSITIONS)[number], entry: number): number {
    return round8((spec.size * entry) / spec.leverage);
  }

  return {
    connection,
    venue: venue.venue,
    async positions(): Promise<VenuePosition[]> {
      const t = venue.now();
      return openPositions(t).map(({ roll, spec }) => {
        const unmapped = spec.pair === UNMAPPED;
        const mark = unmapped ? null : venue.priceAt(spec.pair, t);
        const sign = spec.side === 'long' ? 1 : -1;
        const liq = roll.entry * (1 - sign / spec.leverage + sign * MAINTENANCE);
        return {
          connection,
          pair: spec.pair,
          asset_id: unmapped ? null : venue.universe.resolveInstrument(spec.pair),
          market_type: 'derivatives',
          side: spec.side,
          size: spec.size,
          entry_price: roll.entry,
          mark_price: mark,
          margin: margin(spec, roll.entry),
          leverage: spec.leverage,
          liquidation_price: round8(liq),
          unrealized_pnl: mark === null ? null : round8((mark - roll.entry) * spec.size * sign),
          settle: 'USDT',
          contract_type: 'linear',
          maintenance_margin: round8(MAINTENANCE * spec.size * roll.entry),
          opened_at: roll.opened_at,
          updated_at: t,
        };
      });
    },
    async balances(): Promise<VenueBalance[]> {
      const t = venue.now();
      const used = openPositions(t).reduce((sum, { roll, spec }) => sum + margin(spec, roll.entry), 0);
      const line = (symbol: string, account: string, total: number, usedAmount: number): VenueBalance => ({
        connection,
        symbol,
        asset_id: venue.universe.resolveCurrency(symbol),
        account,
        total,
        free: round8(total - usedAmount),
        used: usedAmount,
      });
      return [
        line('USDT', 'spot', 12_500.5, 2_500),
        line('BTC', 'spot', 0.1532, 0),
        line('ETH', 'spot', 2.4, 0),
        line('SOL', 'spot', 45.2, 0),
        line('USDC', 'spot', 3_000, 0),
        line('HMSTR', 'spot', 150_000, 0),
        line('USDT', 'futures', 25_000, round8(used)),
      ];
    },
    async fills(request: FillRequest): Promise<FillPage> {
      const limit = Math.min(Math.max(1, Math.floor(request.limit ?? DEFAULT_PAGE)), MAX_PAGE);
      let after: { time: number; id: string } | null = null;
      if (request.cursor !== undefined) {
        const m = /^(\d+):(.+)$/.exec(request.cursor);
        if (m === null)
          throw new VenueError('bad_request', `Invalid fills cursor '${request.cursor}'.`, { venue: venue.venue });
        after = { time: Number(m[1]), id: m[2] };
      }
      const t = venue.now();
      // Generate a month at a time so a page never builds the whole history.
      const out: VenueFill[] = [];
      let a = Math.max(request.since, after?.time ?? request.since);
      while (out.length <= limit && a <= t) {
        const b = Math.min(t + 1, a + 30 * 86_400_000);
        for (const f of fillsBetween(a, b)) {
          if (after !== null && (f.time < after.time || (f.time === after.time && f.external_id <= after.id))) continue;
          out.push(f);
        }
        a = b;
      }
      const page = out.slice(0, limit);
      const more = out.length > limit;
      const lastFill = page[page.length - 1];
      return {
        fills: page,
        next_cursor: more && lastFill !== undefined ? `${lastFill.time}:${lastFill.external_id}` : null,
      };
    },
    async protectiveOrders(): Promise<ProtectiveOrder[]> {
      const t = venue.now();
      const out: ProtectiveOrder[] = [];
      for (const { roll, spec } of openPositions(t)) {
        const legs = PROTECTION[spec.pair];
        if (legs === undefined) continue;
        const sign = spec.side === 'long' ? 1 : -1;
        const side: OrderSide = spec.side === 'long' ? 'sell' : 'buy';
        const id = `${roll.index}-${roll.k}`;
        if (legs.stop !== undefined) {
          out.push({
            connection,
            order_id: `sim-sl-${id}`,
            pair: spec.pair,
            side,
            kind: 'stop_loss',
            trigger_price: round8(roll.entry * (1 - sign * legs.stop)),
            amount: null,
          });
        }
        if (legs.target !== undefined) {
          out.push({
            connection,
            order_id: `sim-tp-${id}`,
            pair: spec.pair,
            side,
            kind: 'take_profit',
            trigger_price: round8(roll.entry * (1 + sign * legs.target)),
            amount: spec.size,
          });
        }
      }
      return out;
    },
    async fundingSinceOpen(pair: string, opened_at: number): Promise<FundingSinceOpen> {
      const spec = POSITIONS.find((p) => p.pair === pair);
      if (spec === undefined) {
        throw new VenueError('unknown_market', `No position in '${pair}' on this account.`, { venue: venue.venue });
      }
      // The venue does not report funding for the instrument it cannot price.
      if (pair === UNMAPPED) return { pair, amount: null, settle: 'USDT' };
      const t = venue.now();
      const sign = spec.side === 'long' ? 1 : -1;
      let paid = 0;
      for (let slot = Math.floor(opened_at / FUNDING_MS) + 1; slot * FUNDING_MS <= t; slot++) {
        const at = slot * FUNDING_MS;
        const rate = venue.fundingRateAt(pair, at - 1);
        const mark = venue.priceAt(pair, at);
        if (rate === null || mark === null) continue;
        paid += sign * rate * spec.size * mark;
      }
      return { pair, amount: round8(paid), settle: 'USDT' };
    },
  };
}

function round8(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}
