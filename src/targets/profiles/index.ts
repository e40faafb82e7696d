import type { TargetProfile } from '../profile.js';
import { anthropic, anthropicStrict } from './anthropic.js';
import { gemini, geminiParameters } from './gemini.js';
import { mcp20251125, mcp20260728 } from './mcp.js';
import { openAi, openAiStrict } from './openai.js';

/** Every profile `--target` knows, by name. */
export const targetProfiles: ReadonlyMap<string, TargetProfile> = new Map([mcp20251125, mcp20260728, openAiStrict, openAi, anthropicStrict, anthropic, gemini, geminiParameters].map((profile) => [profile.name, profile]));
