import { TIMEFRAMES, type Timeframe } from '../platform/product-rules.js';
import { type SettingsGroup, setting } from '../platform/settings.js';
import type { PilotTradeRecord } from '../storage/plans-types.js';

/** The pilot: the service's paper-trading bot, taking its own published plans. */
export interface PilotConfig {
  /** Run the publishing/outcome job and the bot in the background (server.ts). */
  enabled: boolean;
  /** Asset ids the bot publishes plans for and trades. */
  universe: readonly string[];
  /** The timeframe it trades. */
  timeframe: Timeframe;
  /** Time between two runs (publish, advance outcomes, trade). */
  intervalMs: number;
  /** The virtual account's starting equity, USD. */
  startingEquityUsd: number;
  /** Fixed risk per trade: this % of the starting equity is lost at the stop (before the cost). */
  riskPerTradePct: number;
  /** Leverage of the virtual account: margin = notional / leverage. */
  leverage: number;
}

/** A handful of large coins on h1; 10,000 USD, 1% risk per trade, 5x. */
export const DEFAULT_PILOT_CONFIG: PilotConfig = {
  enabled: true,
  universe: ['bitcoin', 'ethereum', 'solana', 'binancecoin', 'ripple'],
  timeframe: 'h1',
  intervalMs: 60_000,
  startingEquityUsd: 10_000,
  riskPerTradePct: 1,
  leverage: 5,
};

/** The pilot's collaborators, injected through `AppDeps.pilot`. */
export interface PilotDeps {
  /** Called once per trade the bot opens (the `pilot_trade` push); absent: nothing is sent. */
  onPilotTrade?: (trade: PilotTradeRecord) => void | Promise<void>;
}

// The pilot's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** The pilot and the publishing/outcome job; absent: `DEFAULT_PILOT_CONFIG`. */
      pilot?: PilotConfig;
    }
    interface Deps {
      /** Whether a user may spectate the pilot; absent: the volume standing of promotions/eligibility. */
      isPilotEligible?: (userId: string) => Promise<boolean>;
      /** The pilot's collaborators (the `pilot_trade` callback); absent: no push on a new pilot trade. */
      pilot?: PilotDeps;
    }
  }
}

/** Reads an integer setting of the environment (absent or empty: `fallback`). */
function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return n;
}

/**
 * MARKETLENS_PILOT (`off` disables the job and the bot), MARKETLENS_PILOT_UNIVERSE (comma list of
 * asset ids), MARKETLENS_PILOT_TIMEFRAME (m5..w1), MARKETLENS_PILOT_INTERVAL_MS (>= 1000),
 * MARKETLENS_PILOT_EQUITY_USD, MARKETLENS_PILOT_RISK_PCT (0 < x <= 100), MARKETLENS_PILOT_LEVERAGE (>= 1).
 */
export function pilotConfigFromEnv(env: NodeJS.ProcessEnv): PilotConfig {
  const d = DEFAULT_PILOT_CONFIG;
  const universe =
    env.MARKETLENS_PILOT_UNIVERSE === undefined
      ? d.universe
      : env.MARKETLENS_PILOT_UNIVERSE.split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
  const timeframe = env.MARKETLENS_PILOT_TIMEFRAME?.trim() || d.timeframe;
  if (!(TIMEFRAMES as readonly string[]).includes(timeframe)) {
    throw new Error(`MARKETLENS_PILOT_TIMEFRAME must be one of ${TIMEFRAMES.join(', ')}, got ${timeframe}`);
  }
  const risk = env.MARKETLENS_PILOT_RISK_PCT?.trim() ? Number(env.MARKETLENS_PILOT_RISK_PCT) : d.riskPerTradePct;
  if (!(risk > 0 && risk <= 100)) throw new Error(`MARKETLENS_PILOT_RISK_PCT must be in (0, 100], got ${risk}`);
  return {
    enabled: env.MARKETLENS_PILOT?.trim().toLowerCase() !== 'off',
    universe,
    timeframe: timeframe as Timeframe,
    intervalMs: intFrom(env, 'MARKETLENS_PILOT_INTERVAL_MS', d.intervalMs, 1000),
    startingEquityUsd: intFrom(env, 'MARKETLENS_PILOT_EQUITY_USD', d.startingEquityUsd, 1),
    riskPerTradePct: risk,
    leverage: intFrom(env, 'MARKETLENS_PILOT_LEVERAGE', d.leverage, 1),
  };
}

/** The pilot's settings (MARKETLENS_PILOT and MARKETLENS_PILOT_*). */
export const PILOT_SETTINGS: SettingsGroup = {
  owner: 'pilot/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('pilot', 'MARKETLENS_PILOT', 'string', 'on', '`off` stops the plan publishing job and the pilot bot'),
    setting('pilotUniverse', 'MARKETLENS_PILOT_UNIVERSE', 'list', 'bitcoin,ethereum,solana,binancecoin,ripple', 'assets the pilot trades (those the market serves)'),
    setting('pilotTimeframe', 'MARKETLENS_PILOT_TIMEFRAME', 'string', 'h1', 'the pilot timeframe'),
    setting('pilotIntervalMs', 'MARKETLENS_PILOT_INTERVAL_MS', 'integer', '60000', 'time between two pilot runs'),
    setting('pilotEquityUsd', 'MARKETLENS_PILOT_EQUITY_USD', 'integer', '10000', 'the pilot starting equity'),
    setting('pilotRiskPct', 'MARKETLENS_PILOT_RISK_PCT', 'number', '1', 'risk per pilot trade, % of equity'),
    setting('pilotLeverage', 'MARKETLENS_PILOT_LEVERAGE', 'integer', '5', 'pilot leverage'),
  ],
  read: (env) => ({ pilot: pilotConfigFromEnv(env) }),
};
