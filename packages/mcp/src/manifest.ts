import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from './catalog.js';
import { MCP_PACKAGE_VERSION, MCP_SERVER_NAME, toolListing } from './server.js';
import type { BackendGroup, ToolDefinition } from './tool.js';

/** `{base_url}/mcp/manifest.json`: where the remote server is, how to authorize, and its tools. */
export interface McpManifest {
  name: string;
  title: string;
  description: string;
  version: string;
  /** The Streamable HTTP endpoint. */
  endpoint: string;
  transport: 'streamable-http';
  authorization: {
    type: 'oauth2';
    /** RFC 9728 protected resource metadata of the endpoint. */
    protected_resource_metadata: string;
    /** RFC 8414 issuer: its metadata is at `{issuer}/.well-known/oauth-authorization-server`. */
    authorization_server: string;
    /** The audience a token must be issued for (RFC 8707 `resource`). */
    resource: string;
    grant_types: string[];
    code_challenge_methods: string[];
  };
  tools: Tool[];
}

export interface ManifestOptions {
  version?: string;
  /** Backend groups the server serves (default: all); tools of other groups are not listed. */
  groups?: readonly BackendGroup[];
}

/** The manifest of a server whose base URL is `baseUrl` (no trailing slash needed). */
export function manifest(baseUrl: string, options: ManifestOptions = {}): McpManifest {
  const base = baseUrl.replace(/\/+$/, '');
  const groups = options.groups;
  const tools: readonly ToolDefinition[] = groups ? CATALOG.filter((t) => groups.includes(t.needs)) : CATALOG;
  return {
    name: MCP_SERVER_NAME,
    title: 'marketlens',
    description:
      'Technical analysis and market data (analyses with zones, signals, Fear & Greed, screeners) and your own exchange portfolio, read-only, as MCP tools.',
    version: options.version ?? MCP_PACKAGE_VERSION,
    endpoint: `${base}/mcp`,
    transport: 'streamable-http',
    authorization: {
      type: 'oauth2',
      protected_resource_metadata: `${base}/.well-known/oauth-protected-resource/mcp`,
      authorization_server: base,
      resource: `${base}/mcp`,
      grant_types: ['authorization_code', 'refresh_token'],
      code_challenge_methods: ['S256'],
    },
    tools: tools.map(toolListing),
  };
}
