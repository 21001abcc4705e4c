import { randomUUID } from 'node:crypto';
import type { SimulatedLeg } from '@marketlens/core';
import type { MarketData } from '@marketlens/exchanges';
import { advanceOutcomes, PLAN_COST_PCT, planCostPct } from '../analysis/plans/outcomes.js';
import { publishPlans } from '../analysis/plans/recorder.js';
import { type AssetRef, assetRef } from '../market/assets.js';
import { universeOf } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { FINAL_OUTCOMES, type PilotTradeRecord, type PublishedPlanRow } from '../storage/plans-types.js';
import { DEFAULT_PILOT_CONFIG, type PilotConfig } from './config.js';

/** The pilot's configuration of an app (the default when the server config names none). */
export function pilotConfigOf(deps: AppDeps): PilotConfig {
  return deps.config.pilot ?? DEFAULT_PILOT_CONFIG;
}

/** The series the pilot trades: its universe on its timeframe (the backtest record walks them too). */
export function pilotSeries(deps: AppDeps): { asset_id: string; timeframe: PilotConfig['timeframe'] }[] {
  const pilot = pilotConfigOf(deps);
  return pilot.universe.map((asset_id) => ({ asset_id, timeframe: pilot.timeframe }));
}

/** The asset block of a pilot item: only for an asset of the coin universe (else the key is absent). */
export function coinAssetOf(market: MarketData, assetId: string): AssetRef | undefined {
  const asset = universeOf(market).get(assetId);
  return asset !== undefined && asset.asset_class === 'coins' ? assetRef(asset) : undefined;
}

/** USD amounts are kept to a micro-dollar, so sums of them are exact in decimal. */
export function roundUsd(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * Realized figures of a trade's closed legs: PnL after the round-trip cost (`costPct`: the plan's
 * own, its asset class's, as its outcome is scored; default the flat 0.20%), and the size-weighted exit.
 */
export function legsResult(
  trade: Pick<PilotTradeRecord, 'side' | 'entry_price' | 'quantity'>,
  legs: SimulatedLeg[],
  costPct: number = PLAN_COST_PCT,
) {
  const s = trade.side === 'long' ? 1 : -1;
  let pnl = 0;
  let closedPct = 0;
  let exitSum = 0;
  for (const leg of legs) {
    if (leg.exit_price === null) continue;
    const qty = (trade.quantity * leg.size_pct) / 100;
    pnl += qty * s * (leg.exit_price - trade.entry_price) - (costPct / 100) * trade.entry_price * qty;
    closedPct += leg.size_pct;
    exitSum += leg.size_pct * leg.exit_price;
  }
  return {
    pnl_usd: roundUsd(pnl),
    closed_pct: closedPct,
    exit_price: closedPct === 0 ? null : exitSum / closedPct,
  };
}

/** The trade as it stands with the plan's progress (legs, and the close once the plan is final). */
export function tradeWithPlan(trade: PilotTradeRecord, plan: PublishedPlanRow): PilotTradeRecord {
  const final = FINAL_OUTCOMES.has(plan.outcome);
  const r = legsResult(trade, plan.legs, planCostPct(plan.plan));
  return {
    ...trade,
    legs: plan.legs,
    outcome: plan.outcome,
    status: final ? 'closed' : 'open',
    closed_at: final ? plan.closed_at : null,
    exit_price: final ? r.exit_price : null,
    realized_r: final ? plan.realized_r : null,
    pnl_usd: final ? r.pnl_usd : null,
    return_on_margin_pct: final ? (r.pnl_usd / trade.margin_usd) * 100 : null,
  };
}

/** Sizing of a new trade on an entered plan: fixed USD risk to the plan's stop from the fill. */
export function sizeTrade(config: PilotConfig, plan: PublishedPlanRow): Omit<PilotTradeRecord, 'trade_index'> | null {
  const fill = plan.fill_price;
  const stop = plan.plan.stop_loss;
  if (fill === null || stop === null || plan.entered_at === null) return null;
  const riskPerUnit = Math.abs(fill - stop);
  if (!(riskPerUnit > 0) || !(fill > 0)) return null;
  const riskUsd = (config.startingEquityUsd * config.riskPerTradePct) / 100;
  const quantity = riskUsd / riskPerUnit;
  const notional = quantity * fill;
  return {
    id: randomUUID(),
    plan_id: plan.id,
    asset_id: plan.asset_id,
    timeframe: plan.timeframe,
    pair: plan.pair,
    side: plan.side,
    opened_at: plan.entered_at,
    entry_price: fill,
    stop_loss: stop,
    take_profits: plan.plan.take_profits.map((t) => ({ price: t.price, size_pct: t.size_pct })),
    quantity,
    notional_usd: roundUsd(notional),
    margin_usd: roundUsd(notional / config.leverage),
    leverage: config.leverage,
    risk_usd: riskUsd,
    status: 'open',
    outcome: 'entered',
    closed_at: null,
    exit_price: null,
    realized_r: null,
    pnl_usd: null,
    return_on_margin_pct: null,
    legs: [],
  };
}

/** Realized equity: the starting equity plus the PnL of every closed trade. */
export async function pilotEquity(deps: AppDeps): Promise<number> {
  const config = pilotConfigOf(deps);
  const closed = await deps.storage.pilot.closedAll();
  return roundUsd(closed.reduce((e, t) => e + (t.pnl_usd ?? 0), config.startingEquityUsd));
}

/** What one run did. */
export interface PilotRun {
  published: number;
  moves: number;
  opened: PilotTradeRecord[];
  closed: PilotTradeRecord[];
  skipped: { plan_id: string; reason: string }[];
}

/**
 * One run of the pilot: publish the current plans of its universe, advance every open plan's
 * outcome, close or update its open trades from their plans, then take the plans of its universe
 * and timeframe entered since it started. One trade per asset at a time (a plan entered while the
 * asset's trade runs is skipped, `asset_busy`), and only with the margin free (`insufficient_margin`).
 * The `pilot_trade` callback fires once per trade opened and still open.
 */
export async function runPilotCycle(deps: AppDeps): Promise<PilotRun> {
  const config = pilotConfigOf(deps);
  const storage = deps.storage;
  const now = deps.now();
  const started = (await storage.pilot.state())?.started_at ?? now;
  const published = await publishPlans(deps, config.universe, config.timeframe);
  const moves = await advanceOutcomes(deps);

  const run: PilotRun = { published, moves: moves.length, opened: [], closed: [], skipped: [] };
  const open: PilotTradeRecord[] = [];
  for (const trade of await storage.pilot.openTrades()) {
    const plan = await storage.publishedPlans.byId(trade.plan_id);
    if (plan === null) continue;
    const next = tradeWithPlan(trade, plan);
    if (JSON.stringify(next) !== JSON.stringify(trade)) await storage.pilot.update(next);
    if (next.status === 'closed') run.closed.push(next);
    else open.push(next);
  }

  const recent = await storage.pilot.closedPage(50);
  let equity = await pilotEquity(deps);
  for (const plan of await storage.publishedPlans.undecidedEntered(config.universe, config.timeframe, started)) {
    const enteredAt = plan.entered_at ?? now;
    const busy = [...open, ...recent, ...run.opened].some(
      (t) =>
        t.asset_id === plan.asset_id && t.opened_at <= enteredAt && (t.closed_at === null || t.closed_at > enteredAt),
    );
    const sized = sizeTrade(config, plan);
    let reason: string | null = null;
    if (busy) reason = 'asset_busy';
    else if (sized === null) reason = 'unusable_plan';
    else {
      const used = open.reduce((m, t) => m + t.margin_usd, 0);
      if (sized.margin_usd > equity - used) reason = 'insufficient_margin';
    }
    if (reason !== null || sized === null) {
      await storage.pilot.decide(plan.id, { skipped: reason ?? 'unusable_plan' }, now);
      run.skipped.push({ plan_id: plan.id, reason: reason ?? 'unusable_plan' });
      continue;
    }
    const withPlan = tradeWithPlan({ ...sized, trade_index: 0 }, plan);
    const { trade_index: _, ...taken } = withPlan;
    const stored = await storage.pilot.decide(plan.id, { taken }, now);
    if (stored === null) continue;
    run.opened.push(stored);
    if (stored.status === 'closed') {
      run.closed.push(stored);
      equity = roundUsd(equity + (stored.pnl_usd ?? 0));
      continue;
    }
    open.push(stored);
    try {
      await deps.pilot?.onPilotTrade?.(stored);
    } catch {
      // A push that fails is the push's problem; the trade stands.
    }
  }
  await storage.pilot.touch(now);
  return run;
}
