import * as contract from '@marketlens/contract';
import * as words from '@marketlens/contract/words';
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

/**
 * The contract spells the words core computes and the venues read. Since session 15 the signal
 * factors, candle patterns, regime phases, Fear & Greed zones and signal sorts are written once, in
 * `@marketlens/contract/words`, and core re-exports them: the equality pins of those lists became
 * identity checks (core's public names are the contract's arrays). Core's `FEAR_GREED_ZONES` are its
 * score bands, built over the contract's zone list; the history outputs are core's own table.
 */
describe('contract words and the packages that compute them', () => {
  it("core's signal factors, candle patterns, regime phases and signal sorts are the contract's lists", () => {
    expect(SIGNAL_FACTORS).toBe(contract.SIGNAL_FACTORS);
    expect(CANDLE_PATTERNS).toBe(contract.CANDLE_PATTERNS);
    expect(REGIME_PHASES).toBe(contract.REGIME_PHASES);
    expect(SIGNAL_SORTS).toBe(contract.SIGNAL_SORTS);
    expect(SIGNAL_FACTORS).toBe(words.SIGNAL_FACTORS);
    expect(SIGNAL_SORTS).toBe(words.SIGNAL_SORTS);
  });

  it("core's Fear & Greed bands are the contract's zones in order, and its history outputs the contract's", () => {
    expect(FEAR_GREED_ZONES.map((z) => z.zone)).toEqual([...contract.FEAR_GREED_ZONES]);
    expect(contract.FEAR_GREED_ZONES).toBe(words.FEAR_GREED_ZONES);
    expect([...contract.HISTORY_OUTPUTS]).toEqual(Object.keys(ANALYSIS_HISTORY));
  });

  it('publishes the plan outcomes the plan store records', () => {
    expect([...contract.PLAN_OUTCOMES]).toEqual([...PLAN_OUTCOMES]);
  });

  it('serves every timeframe of the contract from the venues', () => {
    expect([...contract.TIMEFRAMES]).toEqual([...VENUE_TIMEFRAMES]);
  });
});
