import type { PlanCostOverride } from './plan-costs.js';

/** An OpenAI-compatible endpoint that rewrites the overview narrative. */
export interface OverviewLlmConfig {
  /** Base URL; the request goes to `{baseUrl}/chat/completions`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** A rewrite slower than this is abandoned and the facts' text served. */
  timeoutMs: number;
}

// The analysis feature's slice of the server's configuration (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** An OpenAI-compatible endpoint that rewrites the overview narrative; null: the facts' text only. */
      overviewLlm: OverviewLlmConfig | null;
      /** Round-trip costs of published plans per asset class and venue (`MARKETLENS_PLAN_COSTS`); absent: core's `COST_MODELS`. */
      planCosts?: readonly PlanCostOverride[];
      /**
       * Floor of a call's expected R after costs at the lower end of its interval
       * (`MARKETLENS_SIGNAL_MIN_EXPECTED_R`, -100..100); absent: core's `SIGNAL_MIN_EXPECTED_R` (0).
       */
      signalMinExpectedR?: number;
      /**
       * Time between two runs of the backtest record's job (`MARKETLENS_BACKTEST_INTERVAL_MS`, default an
       * hour from the environment); absent or 0: the job is not scheduled and the backtest stays pending.
       */
      backtestIntervalMs?: number;
    }
  }
}
