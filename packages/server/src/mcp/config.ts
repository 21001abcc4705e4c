import type { FairGate } from './fair-gate.js';

// The MCP endpoint's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /**
       * Browser origins, besides the public origin, whose pages may call `/mcp` (`https://app.example`).
       * A request with any other `Origin` header is refused; requests without one (non-browser clients) pass.
       */
      mcpAllowedOrigins?: readonly string[];
    }
    interface Deps {
      /**
       * Admission of `/mcp` messages, fair between client addresses (`mcp/fair-gate.ts`); absent: the
       * route makes one with `MCP_FAIRNESS` on first use.
       */
      mcpGate?: FairGate;
    }
  }
}
