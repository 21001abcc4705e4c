/** Percent distance of `price` from a band (0 inside it): how far the live mark is from a published level. */
export function distancePct(price: number, low: number, high: number): number {
  if (price > high) return ((price - high) / high) * 100;
  if (price < low) return ((low - price) / low) * 100;
  return 0;
}
