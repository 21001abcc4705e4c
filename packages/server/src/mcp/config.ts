import type { PublicShape } from '../platform/deps.js';
import { type SettingsGroup, setting } from '../platform/settings.js';
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
      mcpGate?: PublicShape<FairGate>;
    }
  }
}

/** MARKETLENS_MCP_ALLOWED_ORIGINS: browser origins (comma list of http(s) URLs) whose pages may call /mcp. */
function mcpAllowedOriginsFromEnv(env: NodeJS.ProcessEnv): { mcpAllowedOrigins?: string[] } {
  const raw = (env.MARKETLENS_MCP_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (raw.length === 0) return {};
  return {
    mcpAllowedOrigins: raw.map((origin) => {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new Error(`MARKETLENS_MCP_ALLOWED_ORIGINS must list http(s) origins, got ${origin}`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new Error(`MARKETLENS_MCP_ALLOWED_ORIGINS must list http(s) origins, got ${origin}`);
      return url.origin;
    }),
  };
}

/** The MCP endpoint's settings: the browser origins that may call `/mcp` (MARKETLENS_MCP_ALLOWED_ORIGINS). */
export const MCP_SETTINGS: SettingsGroup = {
  owner: 'mcp/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('mcpAllowedOrigins', 'MARKETLENS_MCP_ALLOWED_ORIGINS', 'list', 'none', 'browser origins besides the public one whose pages may call `/mcp`'),
  ],
  read: (env) => mcpAllowedOriginsFromEnv(env),
};
