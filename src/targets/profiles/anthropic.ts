import type { TargetProfile } from '../profile.js';

const toolName = { portable: true, pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: '^[a-zA-Z0-9_-]{1,64}$' };
const source = "https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use and https://docs.claude.com/en/docs/build-with-claude/structured-outputs (with the SDK's transform-json-schema)";

/** Anthropic strict tool use: closed objects, primitive enums, unenforced bounds, per-request budgets. */
export const anthropicStrict: TargetProfile = {
  name: 'anthropic-strict',
  title: 'Anthropic strict mode',
  source,
  checked: '2026-12-01',
  toolName,
  strict: 'anthropic',
  requestLimits: { strictTools: 20, optionalParameters: 24 },
};

/** Anthropic tool use without strict mode: tool names. */
export const anthropic: TargetProfile = {
  name: 'anthropic',
  title: 'Anthropic tool use',
  source,
  checked: '2026-12-01',
  toolName,
};
