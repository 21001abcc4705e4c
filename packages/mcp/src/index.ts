/**
 * @marketlens/mcp: the marketlens MCP tool catalog, written against a `Backend` this package
 * declares, and the stdio runner.
 */
export const MCP_PACKAGE = '@marketlens/mcp';
