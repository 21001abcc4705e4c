import type { Balances, Order, Position, Trade } from 'ccxt';
import Decimal from 'decimal.js';
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
import { available } from './capability.js';
import { checkCredentials } from './credentials.js';
import { isCcxtClass } from './errors.js';
import type { IndexedMarket, MarketIndex } from './market-index.js';
import { advance, inWindow, type PageState, requestBounds, requestWindow, startState } from './paging.js';
import { type CcxtAdapterOptions, CcxtSession } from './session.js';
import {
  type CallParams,
  type FillScope,
  type FundingPlan,
  type VenueCredentials,
  type VenueProfile,
  venueProfile,
} from './venues.js';

/** Options of {@link createCcxtAccountData}. */
export interface CcxtAccountDataOptions extends CcxtAdapterOptions {
  /** Venue id: one of `CCXT_VENUES`. */
  venue: string;
  /** The user connection id reported on every record. */
  connection: string;
  credentials: VenueCredentials;
  /** Venue calls one `fills` page may spend walking through empty windows; default 10. */
  maxRequestsPerPage?: number;
  /** Venue calls one `fundingSinceOpen` may spend; default 500. */
  maxFundingRequests?: number;
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function numeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

/** `a * b` exactly in decimal, then as a number. */
function times(a: number, b: number): number {
  return new Decimal(a).times(b).toNumber();
}

/** A position row with the ccxt facts protective-order matching needs. */
interface OpenPosition {
  port: VenuePosition;
  symbol: string;
  contractSize: number;
  /** Stop-loss / take-profit the venue keeps on the position itself (Bybit), when it reports them. */
  stopLoss: number | null;
  takeProfit: number | null;
}

/** One leg of a protective order. */
export interface ProtectiveLeg {
  kind: 'stop_loss' | 'take_profit';
  trigger_price: number;
}

/**
 * The fields of a ccxt order that {@link protectiveLegs} reads, written out so that the published
 * declarations never import ccxt's (they do not compile under `strict` without `skipLibCheck`).
 * Every ccxt `Order` is one.
 */
export interface CcxtOrderLevels {
  side: string | undefined;
  type: string | undefined;
  price: number | undefined;
  triggerPrice?: number | undefined;
  stopPrice?: number | undefined;
  stopLossPrice?: number | undefined;
  takeProfitPrice?: number | undefined;
  reduceOnly: boolean | undefined;
  /** The venue's own order record. */
  info: unknown;
}

/**
 * The protective legs of an open order against the position it would close. Orders on the opening
 * side are entries: none. A trigger order on the closing side is a stop when it fires on an adverse
 * move from the current price (below the mark for a long) and a take-profit when it fires on a
 * favourable one; ccxt's `stopLossPrice` / `takeProfitPrice` are taken as they are when the venue
 * states them (an OCO states both), except on a plain limit order, whose attached levels belong to
 * the position it would open. A reduce-only limit order on the favourable side is a take-profit.
 */
export function protectiveLegs(order: CcxtOrderLevels, side: PositionSide, reference: number | null): ProtectiveLeg[] {
  const closing: OrderSide = side === 'long' ? 'sell' : 'buy';
  if (order.side !== closing) return [];
  const trigger = positive(order.triggerPrice) ?? positive(order.stopPrice);
  const price = positive(order.price);
  const plainLimit = trigger === null && order.reduceOnly !== true && price !== null;
  const legs: ProtectiveLeg[] = [];
  const sl = plainLimit ? null : positive(order.stopLossPrice);
  const tp = plainLimit ? null : positive(order.takeProfitPrice);
  if (sl !== null) legs.push({ kind: 'stop_loss', trigger_price: sl });
  if (tp !== null) legs.push({ kind: 'take_profit', trigger_price: tp });
  if (legs.length > 0) return legs;
  if (trigger !== null) {
    if (reference === null) return [{ kind: textKind(order) ?? 'stop_loss', trigger_price: trigger }];
    const adverse = side === 'long' ? trigger < reference : trigger > reference;
    return [{ kind: adverse ? 'stop_loss' : 'take_profit', trigger_price: trigger }];
  }
  if (order.reduceOnly === true && price !== null && reference !== null) {
    const favourable = side === 'long' ? price > reference : price < reference;
    if (favourable) return [{ kind: 'take_profit', trigger_price: price }];
  }
  return [];
}

/** The kind an order's own type names, when it names one. */
function textKind(order: CcxtOrderLevels): ProtectiveLeg['kind'] | null {
  const info = record(order.info);
  const text = [order.type, info.type, info.orderType, info.stopOrderType, info.ordType, info.origType]
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
  if (/take[\s_-]?profit|\btp\b/i.test(text)) return 'take_profit';
  if (/stop/i.test(text)) return 'stop_loss';
  return null;
}

/** The cursor of a fills read: where it stands and what it still has to read. */
interface FillCursor {
  v: 1;
  /** The `since` the read started from. */
  start: number;
  /** The read stops at this time (the clock when it started). */
  end: number;
  /** Scope index. */
  i: number;
  /** Discovered symbols (per-symbol venues): `[symbol, 0 spot | 1 derivatives]`. */
  symbols?: [string, 0 | 1][];
  state: PageState;
}

function encodeCursor(cursor: FillCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function decodeCursor(text: string, venue: string): FillCursor {
  const bad = (): VenueError => new VenueError('bad_request', 'invalid fills cursor', { venue });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const c = record(parsed);
  const state = record(c.state);
  const okNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const okSymbols =
    c.symbols === undefined ||
    (Array.isArray(c.symbols) &&
      c.symbols.every((s) => Array.isArray(s) && typeof s[0] === 'string' && (s[1] === 0 || s[1] === 1)));
  if (
    c.v !== 1 ||
    !okNumber(c.start) ||
    !okNumber(c.end) ||
    !Number.isInteger(c.i) ||
    !okSymbols ||
    !okNumber(state.since) ||
    !(state.until === null || okNumber(state.until)) ||
    !(state.resume === null || okNumber(state.resume)) ||
    !(state.tight === undefined || typeof state.tight === 'boolean') ||
    !Array.isArray(state.skip) ||
    !state.skip.every((s) => typeof s === 'string')
  ) {
    throw bad();
  }
  return parsed as FillCursor;
}

class CcxtAccountData implements AccountData {
  readonly venue: string;
  private readonly profile: VenueProfile;

  constructor(
    private readonly session: CcxtSession,
    readonly connection: string,
    private readonly maxRequestsPerPage: number,
    private readonly maxFundingRequests: number,
  ) {
    this.profile = session.profile;
    this.venue = session.profile.id;
  }

  /** Runs an optional scope's call: a permission or not-enabled answer means "nothing there". */
  private async optional<T>(optional: boolean | undefined, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      if (optional === true && error instanceof VenueError && skippable(error)) return null;
      throw error;
    }
  }

  async positions(): Promise<VenuePosition[]> {
    return (await this.openPositions()).map((p) => p.port);
  }

  private async openPositions(): Promise<OpenPosition[]> {
    const index = await this.session.index();
    const out: OpenPosition[] = [];
    for (const scope of this.profile.positions) {
      const list = await this.optional(scope.optional, () =>
        this.session.call((c) => c.fetchPositions(undefined, { ...scope.params })),
      );
      for (const p of list ?? []) {
        const row = this.toPosition(p, index);
        if (row !== null) out.push(row);
      }
    }
    return out;
  }

  private toPosition(raw: Position, index: MarketIndex): OpenPosition | null {
    const p = this.profile.repairPosition?.(raw) ?? raw;
    const contracts = Math.abs(finite(p.contracts) ?? 0);
    const side = p.side === 'long' || p.side === 'short' ? p.side : null;
    const info = record(p.info);
    // Kraken margin positions carry no prices, only their cost and current value for `vol` units.
    const perUnit = (total: unknown): number | null => {
      const t = positive(numeric(total));
      const v = positive(numeric(info.vol));
      return t === null || v === null ? null : new Decimal(t).div(v).toNumber();
    };
    const entry = positive(p.entryPrice) ?? perUnit(info.cost);
    if (contracts === 0 || side === null || entry === null) return null;
    const rawId =
      typeof info.product_id === 'string' ? info.product_id : typeof info.symbol === 'string' ? info.symbol : null;
    const m = index.bySymbolOf(p.symbol) ?? (rawId === null ? undefined : index.byPairOf(rawId, 'derivatives'));
    const contractSize = positive(p.contractSize) ?? positive(m?.ccxt.contractSize) ?? 1;
    const pair = m?.pair ?? rawId ?? p.symbol ?? '';
    const opened = numeric(info.createdTime) ?? numeric(info.cTime);
    const settle = m === undefined ? null : (m.ccxt.settle ?? m.ccxt.quote).toUpperCase();
    return {
      symbol: m?.ccxt.symbol ?? p.symbol ?? '',
      contractSize,
      stopLoss: positive(p.stopLossPrice),
      takeProfit: positive(p.takeProfitPrice),
      port: {
        connection: this.connection,
        pair,
        asset_id: m?.asset_id ?? this.session.universe.resolveInstrument(pair),
        market_type: m?.market_type ?? 'derivatives',
        side,
        size: times(contracts, contractSize),
        entry_price: entry,
        mark_price:
          positive(p.markPrice) ??
          perUnit(info.value) ??
          (m?.ccxt.inverse === true ? null : markFromNotional(p.notional, contracts, contractSize)),
        margin: positive(p.initialMargin) ?? positive(p.collateral),
        leverage: positive(p.leverage),
        liquidation_price: positive(p.liquidationPrice),
        unrealized_pnl: finite(p.unrealizedPnl),
        settle,
        // Inverse contracts are sized in quote units (USD), as contracts times contract size are.
        contract_type: m?.ccxt.inverse === true ? 'inverse' : 'linear',
        maintenance_margin: positive(p.maintenanceMargin),
        opened_at: opened !== null && opened > 0 ? opened : null,
        updated_at: positive(p.lastUpdateTimestamp) ?? positive(p.timestamp) ?? this.session.now(),
      },
    };
  }

  async balances(): Promise<VenueBalance[]> {
    const out: VenueBalance[] = [];
    for (const scope of this.profile.balances) {
      const b = await this.optional(scope.optional, () =>
        this.session.call((c) => c.fetchBalance({ ...scope.params })),
      );
      if (b !== null) out.push(...this.toBalances(b, scope.account));
    }
    return out;
  }

  private toBalances(b: Balances, account: string): VenueBalance[] {
    const out: VenueBalance[] = [];
    for (const [code, value] of Object.entries(b)) {
      if (['info', 'free', 'used', 'total', 'timestamp', 'datetime', 'debt'].includes(code)) continue;
      const line = record(value);
      const free = finite(line.free);
      const used = finite(line.used);
      const total =
        finite(line.total) ?? (free !== null && used !== null ? new Decimal(free).plus(used).toNumber() : null);
      if (total === null || total === 0) continue;
      out.push({
        connection: this.connection,
        symbol: code.toUpperCase(),
        asset_id: this.session.universe.resolveCurrency(code),
        account,
        total,
        free,
        used,
      });
    }
    return out;
  }

  async fills(request: FillRequest): Promise<FillPage> {
    const now = this.session.now();
    let cursor: FillCursor | null =
      request.cursor === undefined
        ? await this.startFills(request.since, now)
        : decodeCursor(request.cursor, this.venue);
    const scopes = this.fillScopes(cursor);
    const index = await this.session.index();
    const fills: VenueFill[] = [];
    for (let requests = 0; cursor !== null && requests < this.maxRequestsPerPage && fills.length === 0; requests++) {
      const scope: FillScope | undefined = scopes[cursor.i];
      if (scope === undefined) {
        cursor = null;
        break;
      }
      const { state } = cursor;
      // The requested limit is honoured on venues that answer oldest first: ccxt keeps the oldest
      // `limit` fills of an answer, which is where such a read continues from. A newest-first venue
      // answers with its own page size whatever the limit (OKX, Kraken), and ccxt trimming that to the
      // oldest fills would drop the newest, so there the venue's page size is always sent.
      const spec = scope.order === 'asc' ? { ...scope, pageSize: clampLimit(request.limit, scope.pageSize) } : scope;
      const window = requestWindow(spec, state, cursor.end);
      const bounds = requestBounds(window, state);
      const params: Record<string, unknown> = { ...scope.params };
      if (bounds.until !== undefined) params.until = bounds.until;
      const trades = await this.session.call((c) => c.fetchMyTrades(scope.symbol, bounds.since, spec.pageSize, params));
      const timed = trades.map((t) => ({ id: tradeId(t), time: finite(t.timestamp) ?? Number.NaN, trade: t }));
      for (const { trade } of inWindow(timed, window, state)) {
        const fill = this.toFill(trade, index);
        if (fill !== null) fills.push(fill);
      }
      const next = advance(spec, state, window, timed, cursor.end);
      if (next !== null) cursor = { ...cursor, state: next };
      else if (cursor.i + 1 < scopes.length) cursor = { ...cursor, i: cursor.i + 1, state: startState(cursor.start) };
      else cursor = null;
    }
    fills.sort((a, b) => a.time - b.time);
    return { fills, next_cursor: cursor === null ? null : encodeCursor(cursor) };
  }

  private fillScopes(cursor: FillCursor | null): FillScope[] {
    const plan = this.profile.fills;
    if (plan.kind === 'families') return [...plan.scopes];
    return (cursor?.symbols ?? []).map(([symbol, derivatives]) => ({
      ...(derivatives === 1 ? plan.derivatives : plan.spot),
      symbol,
      params: {},
    }));
  }

  /** The first cursor of a read; per-symbol venues discover their symbols here. */
  private async startFills(since: number, now: number): Promise<FillCursor> {
    const base: FillCursor = { v: 1, start: since, end: now, i: 0, state: startState(since) };
    if (this.profile.fills.kind === 'families') return base;
    return { ...base, symbols: await this.discoverSymbols(since, this.profile.fills.spotQuotes) };
  }

  /**
   * Symbols with possible fills since `since`, for venues that only list fills per symbol (Binance):
   * spot markets of held currencies against common quotes; futures with an open position or with an
   * entry in the futures income ledger (every fill pays a commission there).
   */
  private async discoverSymbols(since: number, quotes: readonly string[]): Promise<[string, 0 | 1][]> {
    const index = await this.session.index();
    const out = new Map<string, 0 | 1>();
    const spot = this.profile.balances.find((b) => b.account === 'spot');
    if (spot !== undefined) {
      const b = await this.session.call((c) => c.fetchBalance({ ...spot.params }));
      for (const line of this.toBalances(b, 'spot')) {
        for (const quote of quotes) {
          if (line.symbol === quote) continue;
          const m = index.bySymbolOf(`${line.symbol}/${quote}`);
          if (m !== undefined) out.set(m.ccxt.symbol, 0);
        }
      }
    }
    for (const p of await this.openPositions()) if (p.symbol !== '') out.set(p.symbol, 1);
    if (available(this.session.client.has.fetchLedger)) {
      const ledger = await this.optional(true, () =>
        this.session.call((c) => c.fetchLedger(undefined, since, 1000, { type: 'future', subType: 'linear' })),
      );
      for (const entry of ledger ?? []) {
        const id = record(entry.info).symbol;
        const m = typeof id === 'string' && id !== '' ? index.byPairOf(id, 'derivatives') : undefined;
        if (m !== undefined && m.market_type === 'derivatives') out.set(m.ccxt.symbol, 1);
      }
    }
    return [...out.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  private toFill(t: Trade, index: MarketIndex): VenueFill | null {
    const side = t.side === 'buy' || t.side === 'sell' ? t.side : null;
    const price = positive(t.price);
    const amount = positive(t.amount);
    const time = finite(t.timestamp);
    if (side === null || price === null || amount === null || time === null) return null;
    const m = index.bySymbolOf(t.symbol);
    const info = record(t.info);
    const pair = m?.pair ?? (typeof info.symbol === 'string' ? info.symbol : (t.symbol ?? ''));
    const fee = t.fee === undefined ? null : finite(t.fee.cost);
    return {
      connection: this.connection,
      external_id: tradeId(t),
      order_id: t.order ?? null,
      pair,
      asset_id: m?.asset_id ?? this.session.universe.resolveInstrument(pair),
      market_type: m?.market_type ?? (t.symbol?.includes(':') === true ? 'derivatives' : 'spot'),
      side,
      price,
      amount: baseAmount(amount, price, m),
      fee,
      fee_currency: fee === null || typeof t.fee?.currency !== 'string' ? null : t.fee.currency.toUpperCase(),
      realized_pnl: realizedPnl(info),
      time,
    };
  }

  async protectiveOrders(): Promise<ProtectiveOrder[]> {
    const positions = await this.openPositions();
    if (positions.length === 0) return [];
    const bySymbol = new Map<string, OpenPosition[]>();
    for (const p of positions) {
      const list = bySymbol.get(p.symbol);
      if (list === undefined) bySymbol.set(p.symbol, [p]);
      else list.push(p);
    }
    const { protective } = this.profile;
    const requests: [string | undefined, CallParams][] = [];
    const symbols = protective.scope === 'symbol' ? [...bySymbol.keys()] : [undefined];
    for (const symbol of symbols) for (const params of protective.calls) requests.push([symbol, params]);
    const orders = new Map<string, Order>();
    for (const [symbol, params] of requests) {
      const list = await this.session.call((c) => c.fetchOpenOrders(symbol, undefined, undefined, { ...params }));
      for (const o of list) orders.set(`${o.symbol ?? ''}|${o.id ?? ''}`, o);
    }
    const out: ProtectiveOrder[] = [];
    for (const order of orders.values()) {
      for (const position of bySymbol.get(order.symbol ?? '') ?? []) {
        const reference = position.port.mark_price ?? position.port.entry_price;
        for (const leg of protectiveLegs(order, position.port.side, reference)) {
          out.push(this.protective(position, order.id ?? '', leg, coveredAmount(order, position)));
        }
      }
    }
    // Levels kept on the position itself count when no resting order states them.
    for (const position of positions) {
      const pair = position.port.pair;
      const has = (kind: ProtectiveLeg['kind']) => out.some((o) => o.pair === pair && o.kind === kind);
      if (position.stopLoss !== null && !has('stop_loss')) {
        out.push(
          this.protective(position, `${pair}:position`, { kind: 'stop_loss', trigger_price: position.stopLoss }, null),
        );
      }
      if (position.takeProfit !== null && !has('take_profit')) {
        out.push(
          this.protective(
            position,
            `${pair}:position`,
            { kind: 'take_profit', trigger_price: position.takeProfit },
            null,
          ),
        );
      }
    }
    return out;
  }

  private protective(
    position: OpenPosition,
    order_id: string,
    leg: ProtectiveLeg,
    amount: number | null,
  ): ProtectiveOrder {
    return {
      connection: this.connection,
      order_id,
      pair: position.port.pair,
      side: position.port.side === 'long' ? 'sell' : 'buy',
      kind: leg.kind,
      trigger_price: leg.trigger_price,
      amount,
    };
  }

  async fundingSinceOpen(pair: string, opened_at: number): Promise<FundingSinceOpen> {
    const index = await this.session.index();
    const m = index.byPairOf(pair, 'derivatives');
    const settle = m === undefined ? null : (m.ccxt.settle ?? m.ccxt.quote).toUpperCase();
    const plan = this.profile.funding;
    if (
      plan === null ||
      m === undefined ||
      m.ccxt.swap !== true ||
      !available(this.session.client.has.fetchFundingHistory)
    ) {
      return { pair, amount: null, settle };
    }
    const symbol = m.ccxt.symbol;
    const end = this.session.now();
    let state: PageState | null = startState(opened_at);
    let sum = new Decimal(0);
    const counted = new Set<string>();
    for (let requests = 0; state !== null; requests++) {
      if (requests >= this.maxFundingRequests) {
        throw new VenueError(
          'not_supported',
          `${this.profile.name} funding history since ${new Date(opened_at).toISOString()} is too long to read`,
          {
            venue: this.venue,
          },
        );
      }
      const current: PageState = state;
      const window = requestWindow(plan, current, end);
      const bounds = requestBounds(window, current);
      const params = fundingParams(plan, bounds.since, bounds.until ?? end, bounds.until !== undefined);
      const rows = await this.session.call((c) => c.fetchFundingHistory(symbol, bounds.since, plan.pageSize, params));
      // Ids are not always unique (Hyperliquid stamps every funding event with a zero hash): the
      // time and symbol make them so.
      const timed = rows.map((r) => ({
        id: `${r.timestamp ?? ''}:${r.symbol ?? ''}:${r.id ?? r.amount ?? ''}`,
        time: finite(r.timestamp) ?? Number.NaN,
        row: r,
      }));
      for (const { id, row } of inWindow(timed, window, current)) {
        const amount = finite(row.amount);
        if (row.symbol !== symbol || amount === null || counted.has(id)) continue;
        counted.add(id);
        sum = sum.plus(amount);
      }
      state = advance(plan, current, window, timed, end);
    }
    const paid = plan.positive === 'received' ? sum.negated() : sum;
    return { pair, amount: paid.toNumber(), settle };
  }
}

/** A requested page size within `[1, max]`; the venue's page when none is asked for. */
function clampLimit(limit: number | undefined, max: number): number {
  return limit === undefined || !Number.isFinite(limit) ? max : Math.max(1, Math.min(max, Math.floor(limit)));
}

/** The request parameters bounding a funding window. */
function fundingParams(plan: FundingPlan, since: number, until: number, bounded: boolean): Record<string, unknown> {
  if (plan.windowParams !== undefined) return { ...plan.windowParams(since, until) };
  return bounded ? { until } : {};
}

/** Errors an optional scope treats as "this account has no such part". */
function skippable(error: VenueError): boolean {
  if (error.code === 'not_supported' || error.code === 'bad_request') return true;
  return isCcxtClass(error.cause, 'PermissionDenied') || isCcxtClass(error.cause, 'AccountNotEnabled');
}

function tradeId(t: Trade): string {
  if (typeof t.id === 'string' && t.id !== '') return t.id;
  return `${t.order ?? ''}:${t.timestamp ?? ''}:${t.price ?? ''}:${t.amount ?? ''}`;
}

/** Base units of a fill: contracts times contract size (divided by the price for inverse contracts). */
function baseAmount(amount: number, price: number, m: IndexedMarket | undefined): number {
  if (m === undefined || m.ccxt.contract !== true) return amount;
  const size = positive(m.ccxt.contractSize) ?? 1;
  const units = new Decimal(amount).times(size);
  return (m.ccxt.inverse === true ? units.div(price) : units).toNumber();
}

/** Realized pnl a venue attaches to a fill (Binance `realizedPnl`, OKX `fillPnl`, Hyperliquid `closedPnl`). */
function realizedPnl(info: Record<string, unknown>): number | null {
  for (const key of ['realizedPnl', 'fillPnl', 'closedPnl', 'execPnl']) {
    const v = numeric(info[key]);
    if (v !== null) return v;
  }
  return null;
}

/** The mark implied by a linear position's notional (valued at the mark) where the venue reports no mark (Hyperliquid). */
function markFromNotional(notional: number | undefined, contracts: number, contractSize: number): number | null {
  const value = positive(notional === undefined ? undefined : Math.abs(notional));
  return value === null ? null : new Decimal(value).div(new Decimal(contracts).times(contractSize)).toNumber();
}

/** Amount an order covers in base units; null when it closes the whole position. */
function coveredAmount(order: Order, position: OpenPosition): number | null {
  const info = record(order.info);
  // Binance `closePosition`, OKX `closeFraction` 1: the order closes whatever the position is then.
  if (info.closePosition === true || info.closePosition === 'true' || info.closeFraction === '1') return null;
  const amount = positive(order.amount);
  return amount === null ? null : times(amount, position.contractSize);
}

/**
 * One connected account's data through ccxt, read-only: positions, balances, fills (paged by time
 * with an opaque cursor), open stop-loss / take-profit orders, funding paid since a position opened.
 * Credentials are checked (fields present, wallet address well-formed) before ccxt is even loaded;
 * venue failures are `VenueError`s with venue-specific messages.
 */
export async function createCcxtAccountData(options: CcxtAccountDataOptions): Promise<AccountData> {
  const profile = venueProfile(options.venue);
  const credentials = checkCredentials(profile, options.credentials);
  const session = await CcxtSession.open(profile, credentials, options);
  return new CcxtAccountData(
    session,
    options.connection,
    options.maxRequestsPerPage ?? 10,
    options.maxFundingRequests ?? 500,
  );
}

/**
 * Checks a connection before it is saved: the credential fields, then one authenticated read
 * (the venue's first balance account). Resolves when the venue accepts them; rejects with
 * `invalid_credentials` or `authentication_failed` (e.g. "Binance rejected the API key: ...").
 */
export async function verifyCcxtCredentials(options: Omit<CcxtAccountDataOptions, 'connection'>): Promise<void> {
  const profile = venueProfile(options.venue);
  const credentials = checkCredentials(profile, options.credentials);
  const session = await CcxtSession.open(profile, credentials, options);
  const first = profile.balances[0];
  await session.call((c) => c.fetchBalance({ ...first.params }));
}
