import type { AssetClass } from '../ports.js';

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A small self-contained SVG badge as a `data:` URI: the symbol's first letters on a disc whose
 * hue comes from the asset id (a disc for coins, a rounded square for stocks, a square for fx).
 * Local by construction, so an icon never makes a client fetch a remote URL.
 */
export function iconFor(id: string, symbol: string, assetClass: AssetClass): string {
  const hue = hash32(id) % 360;
  const label = symbol.replace(/[^A-Za-z0-9]/g, '').slice(0, assetClass === 'fx' ? 3 : 4);
  const size = label.length <= 2 ? 13 : label.length === 3 ? 10 : 8;
  const shape =
    assetClass === 'coins' || assetClass === 'external'
      ? `<circle cx="16" cy="16" r="16" fill="hsl(${hue},55%,45%)"/>`
      : `<rect width="32" height="32" rx="${assetClass === 'stocks' ? 7 : 2}" fill="hsl(${hue},45%,38%)"/>`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">${shape}` +
    `<text x="16" y="16" dy=".35em" text-anchor="middle" font-family="sans-serif" font-weight="700" ` +
    `font-size="${size}" fill="#fff">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
