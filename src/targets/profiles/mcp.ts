import type { TargetProfile } from '../profile.js';

const toolName = { portable: false, pattern: /^[A-Za-z0-9_.-]{1,128}$/, rule: '1 to 128 of A-Z a-z 0-9 _ . -' };

/** MCP 2025-11-25: tool names, an object input root, and an object output root for structured content. */
export const mcp20251125: TargetProfile = {
  name: 'mcp-2025-11-25',
  title: 'MCP 2025-11-25',
  source: 'https://modelcontextprotocol.io/specification/2025-11-25/server/tools (Tool name, inputSchema, outputSchema, structuredContent)',
  checked: '2026-12-01',
  toolName,
  outputRoot: 'object-for-structured-content',
};

/** MCP 2026-07-28: any output root may be structured content; clients of 2025-11-25 still expect an object. */
export const mcp20260728: TargetProfile = {
  name: 'mcp-2026-07-28',
  title: 'MCP 2026-07-28',
  source: 'https://modelcontextprotocol.io/specification/2026-07-28/server/tools (outputSchema of any root type)',
  checked: '2026-12-01',
  toolName,
  outputRoot: 'any-but-older-clients-expect-object',
};
