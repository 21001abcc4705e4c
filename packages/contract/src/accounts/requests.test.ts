import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assetIdsOf,
  BalancesQuery,
  EditPositionBody,
  EditPositionInput,
  fillFilterOf,
  OrdersQuery,
  PositionAnalysisInput,
  PositionAnalysisQuery,
  PositionsQuery,
  TradesQuery,
} from './requests.js';

describe('account request schemas', () => {
  it('reads asset_ids from a comma list, a repeated key or JSON, with coin_ids as an alias', () => {
    expect(assetIdsOf(PositionsQuery.parse({}))).toBeNull();
    expect(assetIdsOf(PositionsQuery.parse({ asset_ids: 'bitcoin, ethereum,,bitcoin' }))).toEqual([
      'bitcoin',
      'ethereum',
    ]);
    expect(assetIdsOf(PositionsQuery.parse({ asset_ids: ['bitcoin', 'solana'] }))).toEqual(['bitcoin', 'solana']);
    expect(assetIdsOf(PositionsQuery.parse({ coin_ids: 'bitcoin' }))).toEqual(['bitcoin']);
    expect(assetIdsOf(PositionsQuery.parse({ asset_ids: 'a', coin_ids: 'b' }))).toEqual(['a', 'b']);
    expect(assetIdsOf(PositionsQuery.parse({ asset_ids: '' }))).toBeNull();
    expect(PositionsQuery.safeParse({ asset_ids: 'x'.repeat(129) }).success).toBe(false);
    expect(PositionsQuery.safeParse({ asset_ids: 5 }).success).toBe(false);
  });

  it('clamps limit to 0..200 with default 50, from strings and numbers', () => {
    const limit = (v: unknown) => OrdersQuery.parse(v === undefined ? {} : { limit: v }).limit;
    expect(limit(undefined)).toBe(50);
    expect(limit('')).toBe(50);
    expect(limit('10')).toBe(10);
    expect(limit(10)).toBe(10);
    expect(limit('500')).toBe(200);
    expect(limit(1e9)).toBe(200);
    expect(limit('-3')).toBe(0);
    expect(limit(0)).toBe(0);
    expect(limit('99999999999999999999999')).toBe(200);
    expect(OrdersQuery.safeParse({ limit: 'ten' }).success).toBe(false);
    expect(OrdersQuery.safeParse({ limit: '1.5' }).success).toBe(false);
    expect(TradesQuery.parse({ limit: '201' }).limit).toBe(200);
  });

  it('reads offset as a non-negative integer', () => {
    expect(OrdersQuery.parse({}).offset).toBe(0);
    expect(OrdersQuery.parse({ offset: '7' }).offset).toBe(7);
    expect(OrdersQuery.safeParse({ offset: '-1' }).success).toBe(false);
    expect(OrdersQuery.safeParse({ offset: 'x' }).success).toBe(false);
  });

  it('reads start and end as RFC 3339 and merges the coin_id alias', () => {
    const q = OrdersQuery.parse({
      start: '2026-01-01T00:00:00Z',
      end: '2026-01-02T01:00:00+01:00',
      coin_id: 'bitcoin',
      side: 'buy',
      pair: 'BTCUSDT',
    });
    expect(fillFilterOf(q)).toEqual({
      start: Date.UTC(2026, 0, 1),
      end: Date.UTC(2026, 0, 2),
      asset_id: 'bitcoin',
      side: 'buy',
      pair: 'BTCUSDT',
      limit: 50,
      offset: 0,
    });
    expect(OrdersQuery.safeParse({ start: '2026-01-01' }).success).toBe(false);
    expect(OrdersQuery.safeParse({ start: '2026-01-02T00:00:00Z', end: '2026-01-01T00:00:00Z' }).success).toBe(false);
    expect(OrdersQuery.safeParse({ asset_id: 'bitcoin', coin_id: 'ethereum' }).success).toBe(false);
    expect(fillFilterOf(OrdersQuery.parse({ asset_id: 'bitcoin', coin_id: 'bitcoin' })).asset_id).toBe('bitcoin');
    expect(OrdersQuery.safeParse({ side: 'long' }).success).toBe(false);
    expect(OrdersQuery.safeParse({ user_connection_id: 'not-a-uuid' }).success).toBe(false);
    expect(BalancesQuery.safeParse({ user_connection_id: 'not-a-uuid' }).success).toBe(false);
  });

  it('edits notes only and names the refused fields', () => {
    expect(EditPositionBody.parse({ notes: 'scaled in' })).toEqual({ notes: 'scaled in' });
    expect(EditPositionBody.parse({ notes: null })).toEqual({ notes: '' });
    for (const key of ['stop_loss', 'take_profit', 'visible']) {
      const r = EditPositionBody.safeParse({ notes: 'x', [key]: 1 });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual([key]);
      expect(r.error?.issues[0]?.message).toContain('not writable');
    }
    expect(EditPositionBody.safeParse({ notes: 'x', colour: 'red' }).success).toBe(false);
    expect(EditPositionBody.safeParse({}).success).toBe(false);
    expect(EditPositionBody.safeParse({ notes: 'x'.repeat(2001) }).success).toBe(false);
    expect(EditPositionInput.parse({ position_id: 'p1', notes: 'n' })).toEqual({ position_id: 'p1', notes: 'n' });
    expect(EditPositionInput.safeParse({ position_id: 'p1', notes: 'n', stop_loss: 3 }).success).toBe(false);
  });

  it('defaults the analysis timeframe to d1', () => {
    expect(PositionAnalysisQuery.parse({}).timeframe).toBe('d1');
    expect(PositionAnalysisQuery.parse({ timeframe: 'h1' }).timeframe).toBe('h1');
    expect(PositionAnalysisQuery.parse({ timeframe: '1h' }).timeframe).toBe('h1');
    expect(PositionAnalysisQuery.safeParse({ timeframe: '2h' }).success).toBe(false);
    expect(PositionAnalysisInput.parse({ position_id: 'p' })).toEqual({ position_id: 'p', timeframe: 'd1' });
  });

  it('converts to JSON Schema on the input side, as MCP tool input schemas are published', () => {
    for (const schema of [
      PositionsQuery,
      BalancesQuery,
      OrdersQuery,
      TradesQuery,
      EditPositionInput,
      PositionAnalysisInput,
    ]) {
      const json = z.toJSONSchema(schema, { io: 'input' }) as { type?: string; properties?: object };
      expect(json.type).toBe('object');
      expect(json.properties).toBeTypeOf('object');
    }
  });
});
