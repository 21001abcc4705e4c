import type { OperationId } from '@marketlens/contract';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from './catalog.js';
import { MCP_PACKAGE_VERSION, MCP_SERVER_NAME, toolListing } from './server.js';
import type { ToolDefinition } from './tool.js';

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
  /** Whether the server runs an operation (default: every one); tools of the others are not listed. */
  runs?: (id: OperationId) => boolean;
}

/** The manifest of a server whose base URL is `baseUrl` (no trailing slash needed). */
export function manifest(baseUrl: string, options: ManifestOptions = {}): McpManifest {
  const base = baseUrl.replace(/\/+$/, '');
  const runs = options.runs;
  const tools: readonly ToolDefinition[] = runs ? CATALOG.filter((t) => runs(t.operation)) : CATALOG;
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
