/**
 * What the three price-level kinds (price, zone, breakout) share: they are armed against the live
 * price, held to a band around it, and watch the price itself.
 */
import type { Ticker } from '@marketlens/exchanges';
import { AppError } from '../../platform/errors/app-error.js';
import type { Armed, Arming } from './kind.js';

/** Price-level targets (price, zone, breakout) must lie within this factor of the live price either way. */
export const PRICE_BAND = 10;

/** The live price, refused (400 `TargetOutOfRange`) when the target is not within {@link PRICE_BAND} of it. */
export async function priceInBand(arming: Arming): Promise<number> {
  const price = (await arming.ticker()).last;
  const { target, asset } = arming;
  if (target > price * PRICE_BAND || target < price / PRICE_BAND) {
    throw new AppError(
      'TargetOutOfRange',
      `target ${target} is more than ${PRICE_BAND}x away from the live price ${price} of ${asset.id}`,
    );
  }
  return price;
}

/** Armed against the live price: the alert watches for the price to move from it to the target. */
export async function armAtPrice(arming: Arming): Promise<Armed> {
  const reference = await priceInBand(arming);
  return { reference, direction: arming.target >= reference ? 'above' : 'below' };
}

/** What a price-level alert watches live: the price. */
export async function livePrice(_deps: unknown, _alert: unknown, ticker: Ticker): Promise<number | null> {
  return ticker.last;
}
