/**
 * Counter-based randomness: every draw is a hash of (seed, stream, index), so any bar's numbers
 * are computable without generating the bars before it and without hidden state.
 */

/** lowbias32 (Chris Wellons' hash-prospector): a 32-bit integer finalizer with good avalanche. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of three 32-bit integers. */
export function hash3(seed: number, stream: number, index: number): number {
  return mix32(seed ^ mix32((stream + Math.imul(mix32(index), 0x9e3779b9)) >>> 0));
}

/** FNV-1a of a string, then mixed: the seed of an asset id. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

const INV_2_32 = 1 / 4294967296;

/** Uniform in (0, 1), never 0 or 1. */
export function uniform(seed: number, stream: number, index: number): number {
  return (hash3(seed, stream, index) + 0.5) * INV_2_32;
}

/** Standard normal by Box-Muller over two hashed uniforms. */
export function normal(seed: number, stream: number, index: number): number {
  const u1 = uniform(seed, stream, index * 2);
  const u2 = uniform(seed, stream ^ 0x5bd1e995, index * 2 + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
