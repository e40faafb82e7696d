import type { TargetProfile } from '../profile.js';

const toolName = { portable: true, pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: '^[a-zA-Z0-9_-]{1,64}$' };
const source = 'https://developers.openai.com/api/docs/guides/function-calling and https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas';

/** OpenAI function calling with strict mode (structured outputs): closed objects, every property required, schema limits. */
export const openAiStrict: TargetProfile = {
  name: 'openai-strict',
  title: 'OpenAI strict mode',
  source,
  checked: '2026-12-01',
  toolName,
  strict: 'openai',
  schemaLimits: { nesting: 10, properties: 5000, enumValues: 1000, nameAndEnumCharacters: 120_000, largeStringEnum: { values: 250, characters: 15_000 } },
  requestLimits: { tools: 128 },
};

/** OpenAI function calling without strict mode: names and the number of functions in one request. */
export const openAi: TargetProfile = {
  name: 'openai',
  title: 'OpenAI function calling',
  source,
  checked: '2026-12-01',
  toolName,
  requestLimits: { tools: 128 },
};
