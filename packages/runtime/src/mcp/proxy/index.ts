/**
 * `@json-tool-contracts/runtime/mcp/proxy`: a contract gateway in front of any MCP server (the
 * library face of `jtc proxy`), and MCP over stdio for a handler of `mcpHttpHandler`.
 */
export { proxyTools, type DriftPolicy, type McpProxy, type OutputSample, type ProxiedStatus, type ProxiedTool, type ProxyReport, type ProxyToolsOptions, type ProxyUpstream, type ToolDriftVerdict, type UncontractedPolicy, type UpstreamTool } from './proxy-tools.js';
export { mcpStdioServer, type McpStdioServer, type McpStdioServerOptions, type StdioInput, type StdioOutput } from './stdio-server.js';
