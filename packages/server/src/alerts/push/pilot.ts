import { iso } from '../../market/market.js';
import type { AppDeps } from '../../platform/deps.js';
import type { PilotTradeRecord } from '../../storage/plans-types.js';
import { formatPrice, noticeOf } from './notices.js';

/** What a `pilot_trade` push tells about a trade the pilot opened. */
export type PilotTradeNotice = Pick<
  PilotTradeRecord,
  'id' | 'asset_id' | 'timeframe' | 'side' | 'entry_price' | 'stop_loss' | 'opened_at'
>;

/**
 * Writes a `pilot_trade` push for a trade the pilot just opened to every
 * pilot-eligible user with an active device who has not set `pilot_trade_notification_disabled`
 * (on by default). The key is the trade id, so calling it again for the same trade sends nothing
 * new. The scheduler's sender delivers it (`deliverDue`). Returns the outbox rows written.
 * Who is eligible is the pilot's rule, given by the caller (the composition root passes the pilot's
 * eligibility) or else the host's `deps.isPilotEligible`; with neither it throws, sending nothing.
 */
export async function notifyPilotTrade(
  deps: AppDeps,
  trade: PilotTradeNotice,
  isPilotEligible: ((userId: string) => Promise<boolean>) | undefined = deps.isPilotEligible,
): Promise<number> {
  if (isPilotEligible === undefined) {
    throw new Error('notifyPilotTrade needs the pilot eligibility rule (an argument or deps.isPilotEligible)');
  }
  const audience: string[] = [];
  for (const userId of await deps.storage.pushDevices.usersWithActiveDevices()) {
    const prefs = await deps.storage.notificationPreferences.get(userId);
    if (prefs.pilot_trade_notification_disabled) continue;
    if (await isPilotEligible(userId)) audience.push(userId);
  }
  if (audience.length === 0) return 0;
  const side = trade.side === 'long' ? 'Long' : 'Short';
  const notice = noticeOf({
    key: `pilot_trade:${trade.id}`,
    category: 'pilot_trade',
    title: `Pilot opened a ${trade.side} on ${trade.asset_id}`,
    body: `${side} ${trade.asset_id} (${trade.timeframe}) at ${formatPrice(trade.entry_price)}, stop ${formatPrice(trade.stop_loss)}`,
    time: iso(trade.opened_at),
    data: {
      trade_id: trade.id,
      asset_id: trade.asset_id,
      timeframe: trade.timeframe,
      side: trade.side,
      entry_price: trade.entry_price,
      stop_loss: trade.stop_loss,
    },
  });
  return deps.storage.pushOutbox.enqueue(audience, notice, deps.now());
}
