import type { PlanOutcome } from '@marketlens/core';
import { expect, it } from 'vitest';
import { longPlan, planRow, T0 } from '../../../test/support/plans.js';
import { describeEngines } from '../../../test/support/storage/engines.js';
import { publishedPlanAtEntry } from '../../analysis/plans/lookup.js';
import { planTrackRecord } from '../../analysis/plans/track-record.js';

const H = 3_600_000;

describeEngines('published plans repository', (engine) => {
  it('records once per (asset, timeframe, candle) and round-trips the plan', async () => {
    const s = await engine.open();
    const row = planRow(longPlan(T0), T0 + 1);
    expect(await s.publishedPlans.record(row)).toBe(true);
    expect(await s.publishedPlans.record({ ...planRow(longPlan(T0), T0 + 2) })).toBe(false);
    expect(await s.publishedPlans.record(planRow(longPlan(T0), T0 + 2, { timeframe: 'd1' }))).toBe(true);
    expect(await s.publishedPlans.byId(row.id)).toEqual(row);
    const withInterval = planRow(longPlan(T0 + H), T0 + H, {
      confidence: 0.3,
      confidence_low: 0.25,
      confidence_high: 0.35,
    });
    await s.publishedPlans.record(withInterval);
    expect(await s.publishedPlans.byId(withInterval.id)).toEqual(withInterval);
    expect((await s.publishedPlans.open()).map((r) => r.id)[0]).toBe(row.id);
    expect(await s.publishedPlans.list({ asset_id: 'bitcoin', timeframe: 'h1' })).toHaveLength(2);
    expect(await s.publishedPlans.list({ asset_id: 'bitcoin', published_until: T0 })).toHaveLength(0);
    expect(await s.publishedPlans.list({ asset_id: 'bitcoin', side: 'short' })).toHaveLength(0);
  });

  it('finds the plan in force at an entry (publishedPlanAtEntry)', async () => {
    const s = await engine.open();
    const a = planRow(longPlan(T0), T0 + 10, { outcome: 'expired', closed_at: T0 + 5 * H });
    const b = planRow(longPlan(T0 + H), T0 + H + 10);
    await s.publishedPlans.record(a);
    await s.publishedPlans.record(b);
    const q = { asset_id: 'bitcoin', timeframe: 'h1', side: 'long' as const };
    expect(await publishedPlanAtEntry(s, { ...q, entry_time: T0 })).toBeNull();
    expect((await publishedPlanAtEntry(s, { ...q, entry_time: T0 + 20 }))?.published_time).toBe(a.published_at);
    const atB = await publishedPlanAtEntry(s, { ...q, entry_time: T0 + 2 * H });
    expect(atB).toMatchObject({
      published_time: b.published_at,
      timeframe: 'h1',
      outcome: 'pending',
      closed_time: null,
    });
    expect(await publishedPlanAtEntry(s, { ...q, side: 'short', entry_time: T0 + 2 * H })).toBeNull();
    expect(await publishedPlanAtEntry(s, { ...q, timeframe: 'd1', entry_time: T0 + 2 * H })).toBeNull();
    expect((await publishedPlanAtEntry(s, { ...q, timeframe: null, entry_time: T0 + 2 * H }))?.published_time).toBe(
      b.published_at,
    );
  });

  it('aggregates a crafted set: counts, mean realized R, calibration', async () => {
    const s = await engine.open();
    const set: [PlanOutcome, number, number | null][] = [
      ['tp_hit', 0.9, 2],
      ['tp_hit', 0.85, 1],
      ['stopped_out', 0.95, -1],
      ['time_stopped', 0.5, 0.5],
      ['stopped_out', 0.1, -1],
      ['expired', 0.3, null],
      ['pending', 0.7, null],
      ['entered', 0.65, null],
    ];
    let i = 0;
    for (const [outcome, confidence, r] of set) {
      await s.publishedPlans.record(
        planRow(longPlan(T0 + i * H), T0 + i++ * H + 1, { outcome, confidence, realized_r: r }),
      );
    }
    const t = await planTrackRecord(s, 'bitcoin', 'h1', 0.22);
    expect(t.plans).toBe(8);
    expect(t.counts).toEqual({ pending: 1, entered: 1, tp_hit: 2, stopped_out: 2, time_stopped: 1, expired: 1 });
    expect(t.resolved).toBe(5);
    expect(t.hit_rate).toBeCloseTo(2 / 5, 12);
    expect(t.mean_realized_r).toBeCloseTo((2 + 1 - 1 + 0.5 - 1) / 5, 12);
    expect(t.calibration.map((b) => [b.plans, b.resolved, b.hits])).toEqual([
      [1, 1, 0],
      [1, 0, 0],
      [1, 1, 0],
      [2, 0, 0],
      [3, 3, 2],
    ]);
    expect(t.calibration[4].hit_rate).toBeCloseTo(2 / 3, 12);
    expect(t.calibration[4].mean_confidence).toBeCloseTo((0.9 + 0.85 + 0.95) / 3, 12);
    expect(t.calibration[1].hit_rate).toBeNull();
    expect((await planTrackRecord(s, 'ethereum', 'h1', 0.22)).mean_realized_r).toBeNull();
  });
  it('sums per asset, timeframe, outcome and confidence bucket in the database (aggregate)', async () => {
    const s = await engine.open();
    // Bucket edges: 0.2 opens bucket 1, 0.8 and 1 fall in the last bucket, 0 in the first.
    const set: [string, string, PlanOutcome, number, number | null, number][] = [
      ['bitcoin', 'h1', 'tp_hit', 0.8, 1.5, 3],
      ['bitcoin', 'h1', 'tp_hit', 1, 0.5, 1],
      ['bitcoin', 'h1', 'stopped_out', 0.2, -1, 2],
      ['bitcoin', 'h1', 'stopped_out', 0.19, -1.25, 5],
      ['bitcoin', 'd1', 'expired', 0, null, 4],
      ['ethereum', 'h1', 'tp_hit', 0.85, 2, 7],
    ];
    let i = 0;
    for (const [asset_id, timeframe, outcome, confidence, realized_r, hour] of set) {
      await s.publishedPlans.record(
        planRow(longPlan(T0 + ++i * H), T0 + hour * H, { asset_id, timeframe, outcome, confidence, realized_r }),
      );
    }
    const key = (a: { asset_id: string; timeframe: string; outcome: string; bucket: number }) =>
      `${a.asset_id} ${a.timeframe} ${a.outcome} ${a.bucket}`;
    const all = (await s.publishedPlans.aggregate(5)).sort((a, b) => key(a).localeCompare(key(b)));
    expect(all).toEqual([
      {
        asset_id: 'bitcoin',
        timeframe: 'd1',
        outcome: 'expired',
        bucket: 0,
        count: 1,
        sum_r: 0,
        with_r: 0,
        sum_confidence: 0,
        first_published_at: T0 + 4 * H,
        last_published_at: T0 + 4 * H,
      },
      {
        asset_id: 'bitcoin',
        timeframe: 'h1',
        outcome: 'stopped_out',
        bucket: 0,
        count: 1,
        sum_r: -1.25,
        with_r: 1,
        sum_confidence: 0.19,
        first_published_at: T0 + 5 * H,
        last_published_at: T0 + 5 * H,
      },
      {
        asset_id: 'bitcoin',
        timeframe: 'h1',
        outcome: 'stopped_out',
        bucket: 1,
        count: 1,
        sum_r: -1,
        with_r: 1,
        sum_confidence: 0.2,
        first_published_at: T0 + 2 * H,
        last_published_at: T0 + 2 * H,
      },
      {
        asset_id: 'bitcoin',
        timeframe: 'h1',
        outcome: 'tp_hit',
        bucket: 4,
        count: 2,
        sum_r: 2,
        with_r: 2,
        sum_confidence: expect.closeTo(1.8, 12),
        first_published_at: T0 + H,
        last_published_at: T0 + 3 * H,
      },
      {
        asset_id: 'ethereum',
        timeframe: 'h1',
        outcome: 'tp_hit',
        bucket: 4,
        count: 1,
        sum_r: 2,
        with_r: 1,
        sum_confidence: 0.85,
        first_published_at: T0 + 7 * H,
        last_published_at: T0 + 7 * H,
      },
    ]);
    expect((await s.publishedPlans.aggregate(5, { timeframe: 'd1' })).map(key)).toEqual(['bitcoin d1 expired 0']);
    expect((await s.publishedPlans.aggregate(5, { asset_id: 'ethereum' })).map(key)).toEqual(['ethereum h1 tp_hit 4']);
    expect(await s.publishedPlans.aggregate(5, { asset_id: 'solana' })).toEqual([]);
    // Two buckets: [0, 0.5) and [0.5, 1].
    const halves = await s.publishedPlans.aggregate(2, { asset_id: 'bitcoin', timeframe: 'h1' });
    expect(halves.map((a) => [a.outcome, a.bucket, a.count]).sort()).toEqual([
      ['stopped_out', 0, 2],
      ['tp_hit', 1, 2],
    ]);
    await expect(s.publishedPlans.aggregate(1)).rejects.toThrow(RangeError);
  });

  it('gives the publication range with the track record', async () => {
    const s = await engine.open();
    const none = await planTrackRecord(s, 'bitcoin', 'h1', 0.22);
    expect([none.plans, none.first_published_at, none.last_published_at]).toEqual([0, null, null]);
    await s.publishedPlans.record(planRow(longPlan(T0), T0 + 10));
    await s.publishedPlans.record(planRow(longPlan(T0 + H), T0 + H + 10, { outcome: 'expired' }));
    const t = await planTrackRecord(s, 'bitcoin', 'h1', 0.22);
    expect(t.first_published_at).toBe(new Date(T0 + 10).toISOString());
    expect(t.last_published_at).toBe(new Date(T0 + H + 10).toISOString());
  });
});

describeEngines('pilot repository', (engine) => {
  it('decides a plan once, numbers trades in order and keeps state', async () => {
    const s = await engine.open();
    expect(await s.pilot.state()).toBeNull();
    expect(await s.pilot.touch(5)).toEqual({ started_at: 5, last_active_at: 5 });
    expect(await s.pilot.touch(9)).toEqual({ started_at: 5, last_active_at: 9 });
    const p1 = planRow(longPlan(T0), T0 + 1, { outcome: 'entered', entered_at: T0 + H, fill_price: 100 });
    const p2 = planRow(longPlan(T0 + H), T0 + H + 1, { outcome: 'entered', entered_at: T0 + 2 * H, fill_price: 100 });
    await s.publishedPlans.record(p1);
    await s.publishedPlans.record(p2);
    expect((await s.publishedPlans.undecidedEntered(['bitcoin'], 'h1', 0)).map((p) => p.id)).toEqual([p1.id, p2.id]);
    expect(await s.publishedPlans.undecidedEntered(['bitcoin'], 'h1', T0 + 2)).toHaveLength(1);
    expect(await s.pilot.decide(p1.id, { skipped: 'asset_busy' }, 1)).toBeNull();
    const trade = {
      id: 't2',
      plan_id: p2.id,
      asset_id: 'bitcoin',
      timeframe: 'h1',
      pair: 'BTC/USDT',
      side: 'long' as const,
      opened_at: T0 + 2 * H,
      entry_price: 100,
      stop_loss: 95,
      take_profits: [{ price: 110, size_pct: 100 }],
      quantity: 20,
      notional_usd: 2000,
      margin_usd: 400,
      leverage: 5,
      risk_usd: 100,
      status: 'open' as const,
      outcome: 'entered' as const,
      closed_at: null,
      exit_price: null,
      realized_r: null,
      pnl_usd: null,
      return_on_margin_pct: null,
      legs: [],
    };
    expect((await s.pilot.decide(p2.id, { taken: trade }, 1))?.trade_index).toBe(1);
    expect(await s.pilot.decide(p2.id, { taken: { ...trade, id: 'again' } }, 2)).toBeNull();
    expect(await s.publishedPlans.undecidedEntered(['bitcoin'], 'h1', 0)).toEqual([]);
    expect((await s.pilot.openTrades()).map((t) => t.id)).toEqual(['t2']);
    const closed = { ...trade, trade_index: 1, status: 'closed' as const, closed_at: T0 + 3 * H, pnl_usd: 196 };
    expect(await s.pilot.update(closed)).toBe(true);
    expect(await s.pilot.update(closed)).toBe(false);
    expect(await s.pilot.openTrades()).toEqual([]);
    expect((await s.pilot.closedPage(10)).map((t) => t.pnl_usd)).toEqual([196]);
    expect(await s.pilot.closedPage(10, 1)).toEqual([]);
  });
});
