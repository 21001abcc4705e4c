import type { LiveTuning } from './options.js';

// The live feature's slice of the server's configuration (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** Periods and bounds of the live streams (`GET /v2/stream`) over their defaults (benchmarks, tests). */
      live?: Partial<LiveTuning>;
    }
  }
}
