/**
 * @marketlens/mcp: the marketlens MCP tool catalog, written against a `Backend` this package
 * declares, and the stdio runner.
 */
export const MCP_PACKAGE = '@marketlens/mcp';

export type * from './backend.js';
export type { Followable, Followed, LiveBackend } from './backend.js';
export { RUNS_EVERY_OPERATION } from './backend.js';
export { CATALOG } from './catalog.js';
export { COMPLETION_LIMIT, complete } from './completions.js';
export {
  type ErrorCode,
  GENERAL_ERROR,
  isCodedError,
  JSONRPC_RESOURCE_NOT_FOUND,
  type ProtocolError,
  protocolErrorOf,
  ToolError,
  toolErrorResult,
} from './errors.js';
export { type ManifestOptions, type McpManifest, manifest } from './manifest.js';
export { getPrompt, PROMPTS, promptsOf } from './prompts.js';
export { UNAVAILABLE } from './render.js';
export {
  ANALYSIS_TEMPLATE,
  analysisUri,
  LISTED_ANALYSES,
  listResources,
  POSITIONS_URI,
  parseResourceUri,
  readResource,
  TRACK_RECORD_URI,
} from './resources.js';
export { createRestBackend, REST_ROUTES, REST_TIMEOUT_MS, type RestBackendOptions } from './rest-backend.js';
export {
  callTool,
  capabilitiesOf,
  createMcpServer,
  MCP_PACKAGE_VERSION,
  MCP_SERVER_NAME,
  type McpServerOptions,
  runStdio,
  toolListing,
  toolsOf,
} from './server.js';
export { DEFAULT_LOG_LEVEL, LOG_LEVELS, McpSession, type Notify } from './session.js';
export type { ToolDefinition, ToolOutput, ToolSpec } from './tool.js';
export { renderPosition, renderTotals } from './tools/portfolio.js';
