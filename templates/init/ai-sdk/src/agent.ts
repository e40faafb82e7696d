import { toAiSdkTools } from '@json-tool-contracts/runtime/ai';
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createRuntime } from './handlers.js';

const prompt = 'How many words are in "the quick brown fox"?';

/**
 * Without AI_GATEWAY_API_KEY the loop runs offline on the AI SDK's mock model, which calls the
 * tool once and then answers with what the tool returned. With the key set it asks a real model
 * through the AI Gateway (set AI_MODEL to choose one).
 */
function model(): LanguageModel {
  if ((process.env['AI_GATEWAY_API_KEY'] ?? '') !== '') return process.env['AI_MODEL'] ?? 'openai/gpt-5-mini';
  const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt: messages }) => {
      const toolResult = messages.flatMap((message) => (message.role === 'tool' ? message.content : [])).find((part) => part.type === 'tool-result');
      if (toolResult === undefined) {
        const input = JSON.stringify({ text: 'the quick brown fox' });
        return { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'text_count_words', input }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
      }
      const answer = toolResult.output.type === 'json' ? toolResult.output.value : toolResult.output;
      return { content: [{ type: 'text', text: `The tool answered ${JSON.stringify(answer)}.` }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

const result = await generateText({ model: model(), tools: toAiSdkTools(createRuntime()), stopWhen: stepCountIs(5), prompt });
for (const step of result.steps) for (const call of step.toolResults) console.log(`${call.toolName}(${JSON.stringify(call.input)}) -> ${JSON.stringify(call.output)}`);
console.log(result.text);
