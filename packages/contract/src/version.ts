/** Version of the service contract: what REST's OpenAPI `info.version` and every MCP server report. */
export const SERVICE_VERSION = '2.10.55';
