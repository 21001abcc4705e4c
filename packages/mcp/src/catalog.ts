import type { ToolDefinition } from './tool.js';
import { ACCOUNT_TOOLS } from './tools/account.js';
import { ALERT_TOOLS } from './tools/alerts.js';
import { MARKET_TOOLS } from './tools/market.js';
import { PILOT_TOOLS } from './tools/pilot.js';
import { PORTFOLIO_TOOLS } from './tools/portfolio.js';
import { TRACK_RECORD_TOOLS } from './tools/track-record.js';
import { WEBHOOK_TOOLS } from './tools/webhooks.js';

/** Every tool, in the order `tools/list` gives them. */
export const CATALOG: readonly ToolDefinition[] = [
  ...PORTFOLIO_TOOLS,
  ...MARKET_TOOLS,
  ...ACCOUNT_TOOLS,
  ...ALERT_TOOLS,
  ...WEBHOOK_TOOLS,
  ...PILOT_TOOLS,
  ...TRACK_RECORD_TOOLS,
];
