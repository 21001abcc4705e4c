import { SIGNAL_CONTROLS, SIGNAL_SORTS } from '@marketlens/core';
import { isAtLeast } from '../auth/tiers.js';
import type { Caller, ClientInfo } from '../platform/deps.js';
import {
  ALERT_KINDS,
  CHART_DEPTH,
  DEFAULT_TIMEFRAME,
  FREE_TIMEFRAMES,
  SIGNAL_TIMEFRAMES,
  TIMEFRAMES,
  type Timeframe,
} from '../platform/product-rules.js';

/** Whether `timeframe` needs Pro for this client (h1 is free for old mobile builds). */
export function timeframeNeedsPro(timeframe: Timeframe, client: ClientInfo): boolean {
  if (FREE_TIMEFRAMES.includes(timeframe)) return false;
  return !(timeframe === 'h1' && client.h1Free);
}

export function callerBlock(caller: Caller) {
  if (caller.kind === 'anonymous') {
    return {
      state: 'anonymous' as const,
      via: null,
      tier: 'free' as const,
      is_pro: false,
      is_elite: false,
      tier_expires_at: null,
    };
  }
  if (caller.tier === null) {
    return {
      state: 'unavailable' as const,
      via: caller.kind,
      tier: null,
      is_pro: null,
      is_elite: null,
      tier_expires_at: null,
    };
  }
  return {
    state: 'authenticated' as const,
    via: caller.kind,
    tier: caller.tier,
    is_pro: isAtLeast(caller.tier, 'pro'),
    is_elite: caller.tier === 'elite',
    tier_expires_at: caller.tier_expires_at === null ? null : new Date(caller.tier_expires_at).toISOString(),
  };
}

/** The `/v2/config` document for this caller and client. */
export function configDocument(caller: Caller, client: ClientInfo) {
  return {
    analysis: {
      default_timeframe: DEFAULT_TIMEFRAME,
      timeframes: TIMEFRAMES.map((value) => ({ value, needs_pro: timeframeNeedsPro(value, client) })),
    },
    chart_depth: { free: CHART_DEPTH.free, pro: CHART_DEPTH.pro },
    signals: {
      timeframes: [...SIGNAL_TIMEFRAMES],
      controls: SIGNAL_CONTROLS.map((s) => ({
        name: s.name,
        type: s.type,
        values: s.values ? [...s.values] : null,
        min: s.min ?? null,
        max: s.max ?? null,
        default: s.default ?? null,
        description: s.description,
      })),
      sorts: [...SIGNAL_SORTS],
    },
    alerts: { kinds: ALERT_KINDS.map((k) => ({ kind: k.kind, timeframes: k.timeframes.map((t) => ({ ...t })) })) },
    caller: callerBlock(caller),
  };
}
