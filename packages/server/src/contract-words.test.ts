import * as contract from '@marketlens/contract';
import {
  ANALYSIS_HISTORY,
  CANDLE_PATTERNS,
  FEAR_GREED_ZONES,
  REGIME_PHASES,
  SIGNAL_FACTORS,
  SIGNAL_SORTS,
} from '@marketlens/core';
import { TIMEFRAMES as VENUE_TIMEFRAMES } from '@marketlens/exchanges';
import { describe, expect, it } from 'vitest';
import { PLAN_OUTCOMES } from './storage/plans-types.js';

/** The contract spells the words core computes and the venues read; they must be the same lists. */
describe('contract words and the packages that compute them', () => {
  it('lists the same signal factors, candle patterns, regime phases, history outputs and Fear & Greed zones as core', () => {
    expect([...contract.SIGNAL_FACTORS]).toEqual([...SIGNAL_FACTORS]);
    expect([...contract.HISTORY_OUTPUTS]).toEqual(Object.keys(ANALYSIS_HISTORY));
    expect([...contract.CANDLE_PATTERNS]).toEqual([...CANDLE_PATTERNS]);
    expect([...contract.REGIME_PHASES]).toEqual([...REGIME_PHASES]);
    expect([...contract.SIGNAL_SORTS]).toEqual([...SIGNAL_SORTS]);
    expect([...contract.FEAR_GREED_ZONES]).toEqual(FEAR_GREED_ZONES.map((z) => z.zone));
  });

  it('publishes the plan outcomes the plan store records', () => {
    expect([...contract.PLAN_OUTCOMES]).toEqual([...PLAN_OUTCOMES]);
  });

  it('serves every timeframe of the contract from the venues', () => {
    expect([...contract.TIMEFRAMES]).toEqual([...VENUE_TIMEFRAMES]);
  });
});
