import type { TargetProfile } from '../profile.js';

const toolName = { portable: false, pattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/, rule: 'a letter or "_" first, then A-Z a-z 0-9 _ . : -, at most 128' };
const source = 'https://ai.google.dev/api/caching#FunctionDeclaration and https://ai.google.dev/gemini-api/docs/function-calling';

/** Gemini function declarations with `parametersJsonSchema` (JSON Schema as it is). */
export const gemini: TargetProfile = {
  name: 'gemini',
  title: 'Gemini parametersJsonSchema',
  source,
  checked: '2026-12-01',
  toolName,
};

/** Gemini function declarations with `parameters`: the OpenAPI 3.0 subset. */
export const geminiParameters: TargetProfile = {
  name: 'gemini-parameters',
  title: 'Gemini parameters (OpenAPI 3.0 subset)',
  source,
  checked: '2026-12-01',
  toolName,
  openApiParameters: { propertyName: /^[A-Za-z0-9_]{1,64}$/, propertyNameRule: 'at most 64 of A-Z a-z 0-9 _', dropped: ['additionalProperties', '$schema', '$id'] },
};
