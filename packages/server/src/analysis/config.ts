import { type SettingsGroup, setting } from '../platform/settings.js';
import { type PlanCostOverride, parsePlanCosts } from './plan-costs.js';

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

/** MARKETLENS_OPENAI_BASE_URL / _API_KEY / _MODEL: all three, the overview rewrite; none, no rewrite. */
function overviewLlmFromEnv(env: NodeJS.ProcessEnv): OverviewLlmConfig | null {
  const baseUrl = env.MARKETLENS_OPENAI_BASE_URL?.trim();
  const apiKey = env.MARKETLENS_OPENAI_API_KEY?.trim();
  const model = env.MARKETLENS_OPENAI_MODEL?.trim();
  if (!baseUrl && !apiKey && !model) return null;
  if (!baseUrl || !apiKey || !model) {
    throw new Error('MARKETLENS_OPENAI_BASE_URL, MARKETLENS_OPENAI_API_KEY and MARKETLENS_OPENAI_MODEL go together');
  }
  if (!/^https?:\/\//i.test(baseUrl))
    throw new Error(`MARKETLENS_OPENAI_BASE_URL must be an http(s) URL, got ${baseUrl}`);
  return { baseUrl, apiKey, model, timeoutMs: 8_000 };
}

/** MARKETLENS_SIGNAL_MIN_EXPECTED_R: a number in -100..100 (R); absent or blank: core's default. */
function signalMinExpectedRFromEnv(raw: string | undefined): { signalMinExpectedR?: number } {
  if (raw === undefined || raw.trim() === '') return {};
  const x = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(x >= -100 && x <= 100)) {
    throw new Error(`MARKETLENS_SIGNAL_MIN_EXPECTED_R: '${raw}' is not a number of R in -100..100`);
  }
  return { signalMinExpectedR: x };
}

/** MARKETLENS_BACKTEST_INTERVAL_MS: ms between two runs of the backtest record job, 0 (never) or at least a minute; default an hour. */
function backtestIntervalFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3_600_000;
  const x = Number(raw);
  if (!Number.isInteger(x) || (x !== 0 && x < 60_000)) {
    throw new Error(`MARKETLENS_BACKTEST_INTERVAL_MS must be 0 (never) or an integer >= 60000, got ${raw}`);
  }
  return x;
}

/**
 * The analysis feature's settings: the overview rewrite (MARKETLENS_OPENAI_*), the published
 * plans' costs (MARKETLENS_PLAN_COSTS), the expected-R floor of a call
 * (MARKETLENS_SIGNAL_MIN_EXPECTED_R) and the backtest record's period (MARKETLENS_BACKTEST_INTERVAL_MS).
 */
export const ANALYSIS_SETTINGS: SettingsGroup = {
  owner: 'analysis/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('openaiBaseUrl', 'MARKETLENS_OPENAI_BASE_URL', 'string', 'none', 'OpenAI-compatible endpoint that rewrites the overview (with the two below)'),
    setting('openaiApiKey', 'MARKETLENS_OPENAI_API_KEY', 'string', 'none', 'its API key'),
    setting('openaiModel', 'MARKETLENS_OPENAI_MODEL', 'string', 'none', 'its model'),
    setting('planCosts', 'MARKETLENS_PLAN_COSTS', 'list', "core's cost model per asset class", 'round trip of published plans: `<class>[@<venue>]=<fee %>/<spread %>`, e.g. `coins=0.05/0.02,fx@oanda=0/0.01`'),
    setting('signalMinExpectedR', 'MARKETLENS_SIGNAL_MIN_EXPECTED_R', 'number', '0', "a Buy or Sell is published only when its plan's expected R after costs, at the lower end of its 90% interval, is above this (R, -100..100)"),
    setting('backtestIntervalMs', 'MARKETLENS_BACKTEST_INTERVAL_MS', 'integer', '3600000', 'time between two runs of the backtest record job (the walk-forward beside the live track record); 0: never'),
  ],
  read: (env) => ({
    overviewLlm: overviewLlmFromEnv(env),
    planCosts: parsePlanCosts(env.MARKETLENS_PLAN_COSTS),
    ...signalMinExpectedRFromEnv(env.MARKETLENS_SIGNAL_MIN_EXPECTED_R),
    backtestIntervalMs: backtestIntervalFromEnv(env.MARKETLENS_BACKTEST_INTERVAL_MS),
  }),
};
