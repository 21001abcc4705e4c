/** Pilot tools: watch the service's paper-trading bot trade the service's own published plans. */

import type { AssetRef, PilotPosition, PilotTrade } from '../backend.js';
import { lines, num } from '../render.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import { assetName } from './market.js';

const what = (asset: AssetRef | undefined) => (asset ? assetName(asset) : 'asset outside the coin universe');

const inR = (x: number | null) => (x === null ? 'unavailable' : `${num(x, 2)}R`);

const renderOpen = (p: PilotPosition) =>
  `- ${what(p.asset)} ${p.side} from ${num(p.entry_price)}: MFE ${inR(p.mfe_r)}, MAE ${inR(p.mae_r)}`;

const renderTrade = (t: PilotTrade) =>
  `- ${what(t.asset)} ${t.side}: entry ${num(t.entry_price)}, exit ${t.exit_price === null ? 'open' : num(t.exit_price)}, stop ${num(t.stop_loss)}, target ${num(t.take_profit)}`;

const getPilotSpectate = defineTool({
  name: 'get_pilot_spectate',
  title: 'Pilot: open positions',
  description:
    "The pilot (the service's paper-trading bot on its own published plans): open positions with live favorable and adverse excursions in R, and when it was last active. Eligibility follows the affiliate volume rules.",
  operation: 'pilot.spectate',
  text: (s) =>
    lines(
      `Pilot open positions: ${s.open_positions.length}; last active ${s.last_active_at ?? 'unknown'}`,
      ...s.open_positions.map(renderOpen),
    ),
});

const getPilotSpectateHistory = defineTool({
  name: 'get_pilot_spectate_history',
  title: 'Pilot: track record',
  description:
    "The pilot's track record: closed trades (entry, exit, stop, target), the return curve, best and worst trade and per-asset segments. Page older trades with before_trade.",
  operation: 'pilot.trackRecord',
  text: (r) =>
    lines(
      `Pilot trades: ${r.trades.length}${r.next_before_trade !== null ? ` (older trades exist: page with before_trade ${r.next_before_trade})` : ''}`,
      ...r.trades.map(renderTrade),
    ),
});

/** The pilot tools, in catalog order. */
export const PILOT_TOOLS: readonly ToolDefinition[] = [getPilotSpectate, getPilotSpectateHistory];
