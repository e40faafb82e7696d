import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, Server as ServerV2 } from '@modelcontextprotocol/server';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport as WebHttpV1 } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CreateMessageRequestSchema as CreateMessageRequestSchemaV1, ElicitRequestSchema as ElicitRequestSchemaV1, ListRootsRequestSchema as ListRootsRequestSchemaV1 } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { compileContract, compileSchema } from '../../../../test/support/load-module.js';
import { mcpCreateMessage, mcpElicit, mcpListRoots, McpRequestError, mcpToolHandlers, serveToolsOnMcpServer, type McpAnswerValidator, type McpCallToolResult, type McpInputRequiredResult, type McpSamplingContent, type McpToolHandlers, type McpToolHandlersOptions } from '../../src/mcp/server.js';
import { mcpHttpHandler } from '../../src/mcp/http/http-server.js';
import { serveToolsOnMcpServerV1 } from '../../src/mcp/sdk-v1/sdk-v1-server.js';
import { CapabilityRuntime, memoryStore, ToolPolicy, type CallRecord, type RuntimeStore, type ToolRequest } from '../../src/index.js';

/**
 * Handlers that ask the client for input, driven by hand over MCP 2026-07-28's multi-round-trip
 * requests: each request is what a client sends, each answer what the handlers give back.
 */
const greet = compileContract(JSON.stringify({ name: 'people.greet', description: 'Greets someone.', input: { type: 'object', properties: { title: { type: 'string', maxLength: 10 } }, additionalProperties: false }, output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }));
const other = compileContract(JSON.stringify({ name: 'people.other', description: 'Another tool.', input: { type: 'object' }, output: { type: 'object' } }));
/** The answer's validator is a generated one, as `jtc build` writes for a schema. */
const nameAnswer = compileSchema(JSON.stringify({ type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false })) as unknown as McpAnswerValidator<{ name: string }>;
const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

const capabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
const modern = (extra: Record<string, unknown> = {}, clientCapabilities: unknown = capabilities) => ({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': clientCapabilities }, ...extra });
const key = 'a key of at least thirty-two bytes, for the tests';

type Handler = (input: { title?: string }, request: ToolRequest<{ title?: string }>) => unknown;

function serve(handler: Handler, options: McpToolHandlersOptions = {}, budget?: number) {
  const records: CallRecord[] = [];
  const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
  const policy = ToolPolicy.json('people.greet');
  runtime.registerTypedJsonTool(budget === undefined ? policy : policy.withCallBudget(budget), greet as never, handler as never);
  runtime.registerTypedJsonTool(ToolPolicy.json('people.other'), other as never, (() => ({})) as never);
  const mcp = mcpToolHandlers(runtime, { requestState: { key }, ...options });
  const call = (params: Record<string, unknown>) => mcp.callTool({ name: 'people.greet', arguments: {}, ...modern(params) });
  return { runtime, mcp, records, call };
}

/** What callTool answers (no tool here is served as a task). */
type CallAnswer = Awaited<ReturnType<McpToolHandlers['callTool']>>;
const isInputRequired = (result: CallAnswer): result is McpInputRequiredResult => result['resultType'] === 'input_required';
function inputRequired(result: CallAnswer): McpInputRequiredResult {
  if (!isInputRequired(result)) throw new Error(`expected input_required, got ${JSON.stringify(result)}`);
  return result;
}
const textOf = (result: CallAnswer): string => ((result as McpCallToolResult).content[0] as { text: string }).text;

/** Asks for a name and says what came back. */
const askName: Handler = async (input, request) => {
  const answer = await mcpElicit(request, { key: 'user_name', message: 'What is your name?', requestedSchema: nameSchema, validator: nameAnswer });
  return { text: answer.status === 'accepted' ? `Hello, ${input.title ?? ''}${answer.value.name}!` : `${answer.status}${'message' in answer ? `: ${answer.message}` : ''}` };
};

describe('a handler asks, the round ends input_required, the retry re-enters it with the answer', () => {
  it('elicitation: the questions and a sealed state, then the answer; the logical call costs one call of the budget and leaves one record', async () => {
    const { call, records, runtime } = serve(askName, {}, 1);
    const first = inputRequired(await call({}));
    expect(first.inputRequests).toEqual({ user_name: { method: 'elicitation/create', params: { message: 'What is your name?', requestedSchema: nameSchema } } });
    expect(first.requestState).toMatch(/^jtc1\.[\w-]+\.[\w-]+$/);
    expect(first).not.toHaveProperty('content');
    // The suspended round gave its reserved call back and left no record.
    expect(runtime.remainingCalls('people.greet')).toBe(1);
    expect(runtime.records()).toEqual([]);
    const second = await call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState });
    expect(second).toEqual({ resultType: 'complete', content: [{ type: 'text', text: '{"text":"Hello, Ada!"}' }], structuredContent: { text: 'Hello, Ada!' } });
    expect(runtime.remainingCalls('people.greet')).toBe(0);
    expect(records.map((record) => [record.tool, record.outcome])).toEqual([['people.greet', 'completed']]);
    // The budget is spent: the next logical call is refused before it asks anything.
    expect(await call({})).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('budget_exhausted') }] });
  });

  it('declined, cancelled, and content that breaks the validator or is no object at all are typed outcomes', async () => {
    const { call } = serve(askName);
    const state = inputRequired(await call({})).requestState;
    const answered = async (answer: unknown) => textOf(await call({ inputResponses: { user_name: answer }, requestState: state }));
    expect(await answered({ action: 'decline' })).toContain('declined');
    expect(await answered({ action: 'cancel' })).toContain('cancelled');
    expect(await answered({ action: 'accept', content: { name: '' } })).toContain('invalid: the accepted content does not pass its validator: /name: ');
    expect(await answered({ action: 'accept', content: { name: 'Ada', admin: true } })).toContain('invalid: the accepted content does not pass its validator');
    for (const content of [null, ['Ada'], 'Ada', 7]) expect(await answered({ action: 'accept', content })).toContain(`invalid: the accepted content is ${content === null ? 'null' : Array.isArray(content) ? 'an array' : `a ${typeof content}`}, not an object`);
    expect(await answered({ action: 'accept' })).toContain('invalid: the client accepted the elicitation without content');
  });

  it.each([
    ['a generated validator of the empty schema', compileSchema('{}') as unknown as McpAnswerValidator<unknown>],
    ['z.unknown()', z.unknown()],
  ])('content that is no object is invalid at both revisions even when the validator (%s) lets anything through', async (_, anything) => {
    const asking: Handler = async (_input, request) => {
      const answer = await mcpElicit(request, { key: 'anything', message: 'Anything?', requestedSchema: { type: 'object', properties: {} }, validator: anything });
      return { text: answer.status === 'invalid' ? `invalid ${JSON.stringify(answer.issues)}` : `${answer.status} ${JSON.stringify('value' in answer ? answer.value : null)}` };
    };
    const { call, mcp } = serve(asking);
    const state = inputRequired(await call({})).requestState;
    for (const content of [null, ['a'], 'a', 42]) {
      const modernAnswer = textOf(await call({ inputResponses: { anything: { action: 'accept', content } }, requestState: state }));
      // 2025-11-25: the same question sent to the client mid-call (SDK v1's extra), answered at once.
      const legacyExtra = { requestId: 1, sendNotification: async () => {}, sendRequest: async () => ({ action: 'accept', content }) };
      const legacyAnswer = textOf(await mcp.callTool({ name: 'people.greet', arguments: {} }, legacyExtra));
      for (const answer of [modernAnswer, legacyAnswer]) expect(answer).toContain('invalid [{\\"path\\":[],\\"message\\":\\"must be an object\\"}]');
    }
    // An object is what the validator judges, and this one takes any.
    expect(textOf(await call({ inputResponses: { anything: { action: 'accept', content: { any: 1 } } }, requestState: state }))).toContain('accepted {\\"any\\":1}');
  });

  it('a Standard Schema (zod) types and checks an answer as a generated validator does', async () => {
    const { call } = serve(async (_, request) => {
      const answer = await mcpElicit(request, { key: 'age', message: 'How old?', requestedSchema: { type: 'object', properties: { age: { type: 'integer' } } }, validator: z.object({ age: z.number().int().min(0) }) });
      return { text: answer.status === 'accepted' ? `age ${answer.value.age + 1}` : answer.status === 'invalid' ? JSON.stringify(answer.issues) : answer.status };
    });
    const state = inputRequired(await call({})).requestState;
    expect(textOf(await call({ inputResponses: { age: { action: 'accept', content: { age: 41 } } }, requestState: state }))).toContain('age 42');
    expect(textOf(await call({ inputResponses: { age: { action: 'accept', content: { age: -1 } } }, requestState: state }))).toContain('\\"path\\":[\\"age\\"]');
  });

  it('an answer of another shape answers nothing: the question is asked again, never a complete result', async () => {
    const { call } = serve(askName);
    for (const inputResponses of [{ user_name: 12345 }, { wrong_key: { action: 'accept', content: { name: 'Ada' } } }, { user_name: { roots: [] } }]) {
      expect(inputRequired(await call({ inputResponses })).inputRequests).toHaveProperty('user_name');
    }
  });

  it('answers given with the first request and keys nobody asked for: the known answer is used, the rest ignored', async () => {
    const { call } = serve(askName);
    expect(textOf(await call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } }, unknown_extra_key: { action: 'accept', content: { foo: 'bar' } } } }))).toContain('Hello, Ada!');
  });

  it('sampling, roots and elicitation asked together go out in one round; every answer comes back checked', async () => {
    const { call } = serve(async (_, request) => {
      const [name, greeting, roots] = await Promise.all([mcpElicit(request, { message: 'Name?', requestedSchema: nameSchema, validator: nameAnswer }), mcpCreateMessage(request, { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }), mcpListRoots(request)]);
      const said = greeting.status === 'accepted' ? (greeting.value.content as { text?: string }).text : greeting.status;
      return { text: `${said} ${name.status === 'accepted' ? name.value.name : name.status} in ${roots.status === 'accepted' ? roots.value.map((root) => root.uri).join(',') : roots.status}` };
    });
    const first = inputRequired(await call({}));
    expect(Object.entries(first.inputRequests).map(([key, request]) => [key, request.method])).toEqual([
      ['elicitation-1', 'elicitation/create'],
      ['sampling-1', 'sampling/createMessage'],
      ['roots-1', 'roots/list'],
    ]);
    expect(first.inputRequests['roots-1']).toEqual({ method: 'roots/list', params: {} });
    const inputResponses = {
      'elicitation-1': { action: 'accept', content: { name: 'Ada' } },
      'sampling-1': { role: 'assistant', content: { type: 'text', text: 'Hello there!' }, model: 'test-model', stopReason: 'endTurn' },
      'roots-1': { roots: [{ uri: 'file:///test/root', name: 'Test Root' }] },
    };
    expect(textOf(await call({ inputResponses, requestState: first.requestState }))).toContain('Hello there! Ada in file:///test/root');
    const broken = { ...inputResponses, 'sampling-1': { role: 'robot', content: 'hi', model: 7 }, 'roots-1': { roots: [{ uri: 'https://example.com' }] } };
    expect(textOf(await call({ inputResponses: broken, requestState: first.requestState }))).toContain('invalid Ada in invalid');
  });

  it('a sampling answer is MCP sampling content, typed and checked block by block: narrowing on its type gives a block its fields', async () => {
    const { call } = serve(async (_, request) => {
      const answer = await mcpCreateMessage(request, { key: 'word', messages: [{ role: 'user', content: { type: 'text', text: 'A word?' } }], maxTokens: 5 });
      if (answer.status !== 'accepted') return { text: answer.status === 'invalid' ? answer.message : answer.status };
      expectTypeOf(answer.value.content).toEqualTypeOf<McpSamplingContent | readonly McpSamplingContent[]>();
      const said = [answer.value.content].flat().map((block) => {
        if (block.type === 'text') return (expectTypeOf(block.text).toEqualTypeOf<string>(), block.text);
        if (block.type === 'tool_use') return `${block.name}(${JSON.stringify(block.input)})`;
        return `[${block.type}]`;
      });
      return { text: said.join(' ') };
    });
    const state = inputRequired(await call({})).requestState;
    const answered = async (content: unknown) => (JSON.parse(textOf(await call({ inputResponses: { word: { role: 'assistant', model: 'm', content } }, requestState: state }))) as { text: string }).text;
    expect(await answered({ type: 'text', text: 'hello' })).toBe('hello');
    expect(
      await answered([
        { type: 'text', text: 'a' },
        { type: 'tool_use', id: 'u1', name: 'search', input: { q: 'x' } },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
        { type: 'tool_result', toolUseId: 'u1', content: [{ type: 'text', text: 'found' }] },
      ]),
    ).toBe('a search({"q":"x"}) [image] [tool_result]');
    const refused = "the client's sampling result is no message: ";
    expect(await answered({ type: 'text' })).toBe(`${refused}/content/text must be a string`);
    expect(await answered([{ type: 'text', text: 'a' }, { type: 'video' }])).toBe(`${refused}/content/1/type must be one of text, image, audio, tool_use, tool_result`);
    expect(await answered({ type: 'tool_use', id: 'u1', name: 'search', input: ['x'] })).toBe(`${refused}/content/input must be an object`);
    expect(await answered({ type: 'tool_result', toolUseId: 'u1', content: [{ type: 'text' }] })).toBe(`${refused}/content/content must be MCP content blocks: content block 0 (text) needs a string "text"`);
    expect(await answered({ type: 'audio', data: 'AA==' })).toBe(`${refused}/content/mimeType must be a string`);
  });

  it('several rounds: each carries the answers before it in a new state, and the last round gets them all', async () => {
    const { call, records } = serve(async (_, request) => {
      const name = await mcpElicit(request, { key: 'step1', message: 'Step 1: What is your name?', requestedSchema: nameSchema, validator: nameAnswer });
      const color = await mcpElicit(request, { key: 'step2', message: 'Step 2: What is your favorite color?', requestedSchema: {}, validator: z.object({ color: z.string() }) });
      return { text: `${name.status === 'accepted' ? name.value.name : '?'} likes ${color.status === 'accepted' ? color.value.color : '?'}` };
    });
    const first = inputRequired(await call({}));
    expect(Object.keys(first.inputRequests)).toEqual(['step1']);
    const second = inputRequired(await call({ inputResponses: { step1: { action: 'accept', content: { name: 'Alice' } } }, requestState: first.requestState }));
    expect(Object.keys(second.inputRequests)).toEqual(['step2']);
    expect(second.requestState).not.toBe(first.requestState);
    // The last retry answers step 2 only: step 1's answer travels in the state, which the client cannot read or change.
    expect(textOf(await call({ inputResponses: { step2: { action: 'accept', content: { color: 'blue' } } }, requestState: second.requestState }))).toContain('Alice likes blue');
    expect(textOf(await call({ inputResponses: { step1: { action: 'accept', content: { name: 'Mallory' } }, step2: { action: 'accept', content: { color: 'red' } } }, requestState: second.requestState }))).toContain('Alice likes red');
    expect(records.map((record) => record.outcome)).toEqual(['completed', 'completed']);
  });

  it('a call takes at most maxInputRounds rounds: a question after that is unavailable', async () => {
    const { call } = serve(
      async (_, request) => {
        const outcomes: string[] = [];
        for (const step of ['a', 'b', 'c']) outcomes.push((await mcpElicit(request, { key: step, message: step, requestedSchema: nameSchema, validator: nameAnswer })).status);
        return { text: outcomes.join(',') };
      },
      { maxInputRounds: 2 },
    );
    const first = inputRequired(await call({}));
    const accept = { action: 'accept', content: { name: 'x' } };
    expect(textOf(await call({ inputResponses: { a: accept }, requestState: first.requestState }))).toBe('{"text":"accepted,unavailable,unavailable"}');
    expect(() => mcpToolHandlers(new CapabilityRuntime(), { maxInputRounds: 0 })).toThrow('maxInputRounds must be a whole number of at least 1, got 0');
  });

  it('only what the client declared is asked: a missing capability is unavailable at once', async () => {
    const { mcp } = serve(async (_, request) => {
      const [name, message] = await Promise.all([mcpElicit(request, { message: 'Name?', requestedSchema: nameSchema, validator: nameAnswer }), mcpCreateMessage(request, { messages: [], maxTokens: 5 })]);
      return { text: `${name.status} ${'message' in name ? name.message : ''} ${message.status}` };
    });
    const first = inputRequired(await mcp.callTool({ name: 'people.greet', arguments: {}, ...modern({}, { sampling: {} }) }));
    expect(Object.values(first.inputRequests).map((request) => request.method)).toEqual(['sampling/createMessage']);
    const done = await mcp.callTool({ name: 'people.greet', arguments: {}, ...modern({ inputResponses: { 'sampling-1': { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } } }, requestState: first.requestState }, { sampling: {} }) });
    expect(textOf(done)).toContain('unavailable the client did not declare the capability elicitation/create needs');
    expect(textOf(done)).toContain('accepted');
    // URL mode needs its own capability.
    const url = serve(async (_, request) => ({ text: (await mcpElicit(request, { mode: 'url', message: 'Sign in', url: 'https://example.com/login' })).status }));
    expect(textOf(await url.call({}))).toContain('unavailable');
    const asked = inputRequired(await url.mcp.callTool({ name: 'people.greet', arguments: {}, ...modern({}, { elicitation: { url: {} } }) }));
    expect(asked.inputRequests['elicitation-1']).toEqual({ method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login' } });
  });

  it('a required question the client cannot answer ends the call with MissingRequiredClientCapabilityError (-32021), recorded as denied', async () => {
    const { mcp, records } = serve(async (_, request) => {
      const word = await mcpCreateMessage(request, { required: true, messages: [], maxTokens: 5 });
      return { text: word.status };
    });
    await expect(mcp.callTool({ name: 'people.greet', arguments: {}, ...modern({}, { elicitation: {} }) })).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expect(records.map((record) => [record.outcome, record.errorCode, record.tool])).toEqual([['denied', 'denied', 'people.greet']]);
    expect(inputRequired(await mcp.callTool({ name: 'people.greet', arguments: {}, ...modern({}, { sampling: {} }) })).inputRequests).toHaveProperty('sampling-1');
  });

  it("the suspended round's handler sees its signal aborted and its finally blocks run; nothing it returns later counts", async () => {
    const seen: string[] = [];
    const { call } = serve(async (_, request) => {
      request.signal.addEventListener('abort', () => seen.push(`aborted: ${(request.signal.reason as Error).message}`));
      try {
        await mcpElicit(request, { key: 'user_name', message: 'Name?', requestedSchema: nameSchema, validator: nameAnswer });
        return { text: 'never' };
      } finally {
        seen.push('finally');
      }
    });
    inputRequired(await call({}));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([expect.stringMatching(/^aborted: call call-1 to "people.greet" was suspended/), 'finally']);
  });
});

describe('the input contract rules every round; the sealed state binds the call', () => {
  it('arguments are checked in every round; answers never stand in for input', async () => {
    const { call, records } = serve(askName);
    expect(await call({ arguments: { title: 'far too long a title' }, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('invalid_input') }] });
    const first = inputRequired(await call({ arguments: { title: 'Dr. ' } }));
    expect(textOf(await call({ arguments: { title: 'Dr. ' }, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState }))).toContain('Hello, Dr. Ada!');
    expect(records.map((record) => [record.outcome, record.errorCode])).toEqual([
      ['denied', 'invalid_input'],
      ['completed', undefined],
    ]);
  });

  it('a tampered, foreign, malformed, expired state, or one replayed for another tool or other arguments, is a JSON-RPC error, recorded as denied', async () => {
    const { call, mcp, records, runtime } = serve(askName, { requestState: { key, ttlMs: 1 } }, 5);
    const state = inputRequired(await serve(askName).call({ arguments: { title: 'Dr. ' } })).requestState;
    const refusal = async (params: Record<string, unknown>) => {
      try {
        await call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, ...params });
      } catch (error) {
        expect(error).toBeInstanceOf(McpRequestError);
        const { code, message, data } = error as McpRequestError;
        expect([code, message, data?.['reason']]).toEqual([-32602, 'Invalid or expired requestState', 'invalid_request_state']);
        return data?.['refusal'];
      }
      throw new Error('expected the state to be refused');
    };
    expect(await refusal({ arguments: { title: 'Dr. ' }, requestState: `${state}-TAMPERED` })).toBe('malformed');
    const [prefix, id, body] = state.split('.') as [string, string, string];
    const flipped = `${body.slice(0, 20)}${body[20] === 'A' ? 'B' : 'A'}${body.slice(21)}`;
    expect(await refusal({ arguments: { title: 'Dr. ' }, requestState: `${prefix}.${id}.${flipped}` })).toBe('tampered');
    expect(await refusal({ arguments: { title: 'Dr. ' }, requestState: 'opaque' })).toBe('malformed');
    expect(await refusal({ arguments: { title: 'Dr. ' }, requestState: 42 })).toBe('malformed');
    const foreign = inputRequired(await serve(askName, { requestState: { key: `${key}, but another one` } }).call({ arguments: { title: 'Dr. ' } })).requestState;
    expect(await refusal({ arguments: { title: 'Dr. ' }, requestState: foreign })).toBe('foreign');
    // Minted by this server with a lifetime of a millisecond: expired by the time it comes back.
    const expiring = inputRequired(await call({ arguments: { title: 'Dr. ' } })).requestState;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await refusal({ arguments: { title: 'Dr. ' }, requestState: expiring })).toBe('expired');
    expect(await refusal({ arguments: { title: 'Mr. ' }, requestState: state })).toBe('other_input');
    await expect(mcp.callTool({ name: 'people.other', arguments: { title: 'Dr. ' }, ...modern({ requestState: state }) })).rejects.toMatchObject({ data: { refusal: 'other_tool' } });
    // Every refusal is a denied record with the reason; none of them reserved a call.
    const refused = records.filter((record) => record.outcome === 'denied');
    expect(refused).toHaveLength(8);
    expect(runtime.remainingCalls('people.greet')).toBe(5);
    // The same state, with the same arguments and key, continues the call.
    expect(textOf(await serve(askName).call({ arguments: { title: 'Dr. ' }, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: state }))).toContain('Hello, Dr. Ada!');
  });

  it('answers too large for the requestState of the next round are refused when they come, with the call; a large answer that fits round-trips', async () => {
    const askTwice: Handler = async (_input, request) => {
      const first = await mcpElicit(request, { key: 'first', message: 'First?', requestedSchema: nameSchema, validator: z.object({ name: z.string() }) });
      const second = await mcpElicit(request, { key: 'second', message: 'Second?', requestedSchema: nameSchema, validator: z.object({ name: z.string() }) });
      return { text: first.status === 'accepted' && second.status === 'accepted' ? `${first.value.name.length} ${second.value.name}` : `${first.status} ${second.status}` };
    };
    const { call, records, runtime } = serve(askTwice, {}, 3);
    const state = inputRequired(await call({})).requestState;
    const answering = (name: string) => ({ inputResponses: { first: { action: 'accept', content: { name } } }, requestState: state });
    // 1.5 MB would seal into a state of about 2 MB, which the 1 MiB limit on a retry's state refuses.
    await expect(call(answering('x'.repeat(1_500_000)))).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('more than the 1048576 a retry may bring back') as unknown, data: { reason: 'input_responses_too_large', maxRequestStateLength: 1_048_576 } });
    expect(records.map((record) => [record.outcome, record.errorCode])).toEqual([['denied', 'denied']]);
    expect(runtime.remainingCalls('people.greet')).toBe(3);
    // 600 KB seals into a state under the limit, and the retry that brings it back is taken.
    const fits = inputRequired(await serve(askTwice).call(answering('x'.repeat(600_000))));
    expect(fits.requestState.length).toBeLessThanOrEqual(1_048_576);
    const last = { inputResponses: { second: { action: 'accept', content: { name: 'Ada' } } }, requestState: fits.requestState };
    expect(textOf(await serve(askTwice).call(last))).toContain('600000 Ada');
  });

  it('inputResponses that are no object are a JSON-RPC error; a state for an unknown tool is answered as an unknown tool', async () => {
    const { call, mcp } = serve(askName);
    for (const inputResponses of [null, [], 'yes']) await expect(call({ inputResponses })).rejects.toMatchObject({ code: -32602, data: { reason: 'invalid_input_responses' } });
    expect(await mcp.callTool({ name: 'people.nobody', arguments: {}, ...modern({ requestState: 'x' }) })).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('unknown_tool') }] });
  });

  it("handlers made per request (as SDK v2 serves) derive a key once, and open each other's states", async () => {
    const perRequestKey = `${key}, made for this test alone`;
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const first = inputRequired(await serve(askName, { requestState: { key: perRequestKey } }).call({}));
      const second = await serve(askName, { requestState: { key: perRequestKey } }).call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState });
      expect(second).toMatchObject({ resultType: 'complete', structuredContent: { text: 'Hello, Ada!' } });
      expect(importKey).toHaveBeenCalledTimes(1);
    } finally {
      importKey.mockRestore();
    }
  });

  it('refuses a key too short to be a secret and a lifetime that is no whole number', () => {
    expect(() => mcpToolHandlers(new CapabilityRuntime(), { requestState: { key: 'short' } })).toThrow('requestState.key must hold at least 32 bytes (256 bits) of secret, got 5');
    expect(() => mcpToolHandlers(new CapabilityRuntime(), { requestState: { ttlMs: 1.5 } })).toThrow('requestState.ttlMs must be a whole number of milliseconds of at least 1, got 1.5');
  });
});

describe('the helpers outside MCP', () => {
  it('a call that did not come through MCP gets unavailable, never a throw', async () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(
      ToolPolicy.json('people.greet'),
      greet as never,
      (async (_: unknown, request: ToolRequest<unknown>) => {
        const outcomes = [await mcpElicit(request, { message: 'x', requestedSchema: {}, validator: nameAnswer }), await mcpCreateMessage(request, { messages: [], maxTokens: 1 }), await mcpListRoots(request)];
        return { text: outcomes.map((outcome) => ('message' in outcome ? outcome.message : outcome.status)).join(' | ') };
      }) as never,
    );
    const result = await runtime.callAsync('people.greet', {});
    expect(result).toMatchObject({ ok: true, output: { text: expect.stringContaining('elicitation/create needs an MCP client, and call call-1 to "people.greet" did not come through MCP') } });
  });
});

/**
 * The same handler served to real SDK v2 clients of both revisions from one runtime: a client
 * pinned to 2026-07-28 through SDK v2's per-request serving (`createMcpHandler`, reached through
 * `fetch`, no socket), whose driver answers each input_required round with its own handlers and
 * retries; and a 2025-11-25 client in a session of the same SDK's `Server`, which the helpers send
 * real requests to. Outcomes and records must not tell the revisions apart.
 */
describe('one handler, both revisions, real SDK v2 clients', () => {
  /** Asks for a name, a model's word and the roots, one after another; says what each gave. */
  const interview: Handler = async (input, request) => {
    const name = await mcpElicit(request, { key: 'name', message: input.title ?? 'accept', requestedSchema: nameSchema, validator: nameAnswer });
    const word = await mcpCreateMessage(request, { key: 'word', messages: [{ role: 'user', content: { type: 'text', text: 'A word?' } }], maxTokens: 5 });
    const roots = await mcpListRoots(request, { key: 'roots' });
    const said = [name.status === 'accepted' ? name.value.name : name.status, word.status === 'accepted' ? (word.value.content as { text: string }).text : word.status, roots.status === 'accepted' ? roots.value.map((root) => root.name).join('+') : roots.status];
    return { text: said.join(' / ') };
  };

  /** The user's answer depends on the question's message: accept, decline, cancel, or a name its validator refuses. */
  const answerElicitation = (request: { params: { message?: string } }) => {
    const mode = request.params.message;
    if (mode === 'decline' || mode === 'cancel') return { action: mode };
    return { action: 'accept' as const, content: { name: mode === 'invalid' ? '' : 'Ada' } };
  };

  function clientOf(pinned: boolean) {
    const client = new ClientV2({ name: 'test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} }, ...(pinned ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}) });
    client.setRequestHandler('elicitation/create', answerElicitation as never);
    client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: 'hello' } }));
    client.setRequestHandler('roots/list', () => ({
      roots: [
        { uri: 'file:///work', name: 'work' },
        { uri: 'file:///home', name: 'home' },
      ],
    }));
    return client;
  }

  async function bothRevisions() {
    const records: CallRecord[] = [];
    const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
    runtime.registerTypedJsonTool(ToolPolicy.json('people.greet').withCallBudget(8), greet as never, interview as never);
    const options = { requestState: { key } };
    const server = () => {
      const served = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: {}, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] });
      serveToolsOnMcpServer(served, runtime, options);
      return served;
    };
    const http = createMcpHandler(server);
    const rounds: string[] = [];
    const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const response = await http.fetch(new Request(url, init));
      const body = await response.clone().text();
      for (const type of body.matchAll(/"resultType":"(\w+)"/g)) rounds.push(type[1]!);
      return response;
    };
    const modernClient = clientOf(true);
    await modernClient.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch }));
    // server/discover said complete too: only the calls count.
    rounds.length = 0;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server().connect(serverSide);
    const legacyClient = clientOf(false);
    await legacyClient.connect(clientSide);
    return { runtime, records, rounds, modernClient, legacyClient };
  }

  const text = (result: unknown): string => ((result as McpCallToolResult).content[0] as { text: string }).text;

  it('accepted, declined, cancelled and invalid elicitations, sampling and roots: the same outcomes and records at 2026-07-28 and 2025-11-25', async () => {
    const served = await bothRevisions();
    expect([served.modernClient.getNegotiatedProtocolVersion(), served.legacyClient.getNegotiatedProtocolVersion()]).toEqual(['2026-07-28', '2025-11-25']);
    const outcomes: Record<string, string[]> = {};
    for (const [revision, client] of [
      ['2026-07-28', served.modernClient],
      ['2025-11-25', served.legacyClient],
    ] as const) {
      const before = served.records.length;
      for (const title of ['accept', 'decline', 'cancel', 'invalid']) (outcomes[revision] ??= []).push(text(await client.callTool({ name: 'people.greet', arguments: { title } })));
      expect(served.records.slice(before).map((record) => [record.tool, record.outcome, record.errorCode])).toEqual(Array.from({ length: 4 }, () => ['people.greet', 'completed', undefined]));
    }
    expect(outcomes['2026-07-28']).toEqual(['{"text":"Ada / hello / work+home"}', '{"text":"declined / hello / work+home"}', '{"text":"cancelled / hello / work+home"}', '{"text":"invalid / hello / work+home"}']);
    expect(outcomes['2025-11-25']).toEqual(outcomes['2026-07-28']);
    // Each 2026-07-28 call took three input_required rounds and a complete one; the budget of eight paid once per call on both revisions.
    expect(served.rounds.filter((type) => type === 'input_required')).toHaveLength(12);
    expect(served.rounds.filter((type) => type === 'complete')).toHaveLength(4);
    expect(served.runtime.remainingCalls('people.greet')).toBe(0);
    expect(text(await served.legacyClient.callTool({ name: 'people.greet', arguments: { title: 'accept' } }))).toContain('budget_exhausted');
  });
});

/**
 * SDK v2's `createMcpHandler` serves 2025-era requests statelessly by default: each POST gets a
 * server of its own, so a client's answer to a request sent mid-call reaches another one. The
 * helpers answer `unavailable` at once there, where they waited for the SDK's 60 s timeout.
 */
describe("SDK v2's createMcpHandler default, 2025-11-25 clients (SDK 1.32 and 2.4): nobody can be asked mid-call", () => {
  const asking: Handler = async (_input, request) => {
    const outcomes = [await mcpElicit(request, { message: 'Name?', requestedSchema: nameSchema, validator: nameAnswer }), await mcpCreateMessage(request, { messages: [{ role: 'user', content: { type: 'text', text: 'A word?' } }], maxTokens: 5 }), await mcpListRoots(request)];
    return { text: outcomes.map((outcome) => ('message' in outcome ? `${outcome.status}: ${outcome.message}` : outcome.status)).join(' | ') };
  };

  function statelessByDefault() {
    const records: CallRecord[] = [];
    const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
    runtime.registerTypedJsonTool(ToolPolicy.json('people.greet'), greet as never, asking as never);
    const http = createMcpHandler(() => {
      const server = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: {} });
      serveToolsOnMcpServer(server, runtime, { requestState: { key } });
      return server;
    });
    return { records, fetch: (url: string | URL, init?: RequestInit) => http.fetch(new Request(url, init)) };
  }

  const clients = {
    'SDK 2.4': async (fetch: typeof globalThis.fetch) => {
      const client = new ClientV2({ name: 'v2', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } });
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
      client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: 'hello' } }));
      client.setRequestHandler('roots/list', () => ({ roots: [] }));
      await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'), { fetch }));
      return { version: client.getNegotiatedProtocolVersion(), call: () => client.callTool({ name: 'people.greet', arguments: {} }, { timeout: 30_000 }) };
    },
    'SDK 1.32': async (fetch: typeof globalThis.fetch) => {
      const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
      client.setRequestHandler(ElicitRequestSchemaV1, () => ({ action: 'accept', content: { name: 'Ada' } }));
      client.setRequestHandler(CreateMessageRequestSchemaV1, () => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: 'hello' } }));
      client.setRequestHandler(ListRootsRequestSchemaV1, () => ({ roots: [] }));
      const transport = new HttpV1(new URL('http://127.0.0.1:9/mcp'), { fetch });
      await client.connect(transport);
      return { version: transport.protocolVersion, call: () => client.callTool({ name: 'people.greet', arguments: {} }, undefined, { timeout: 30_000 }) };
    },
  };

  /** SDK v1's own stateless wiring: a Server and a transport without sessionIdGenerator per POST. */
  function statelessOnSdkV1() {
    const records: CallRecord[] = [];
    const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
    runtime.registerTypedJsonTool(ToolPolicy.json('people.greet'), greet as never, asking as never);
    const fetch = async (url: string | URL, init?: RequestInit) => {
      const server = new ServerV1({ name: 'tools', version: '1.0.0' }, { capabilities: {} });
      serveToolsOnMcpServerV1(server, runtime, { requestState: { key } });
      const transport = new WebHttpV1({});
      await server.connect(transport);
      return transport.handleRequest(new Request(url, init));
    };
    return { records, fetch };
  }

  it('SDK 1.32 client on an SDK 1.32 stateless server: the same unavailable, at once', async () => {
    const served = statelessOnSdkV1();
    const client = await clients['SDK 1.32'](served.fetch as typeof globalThis.fetch);
    const text = ((await client.call()) as McpCallToolResult).content[0] as { text: string };
    expect((JSON.parse(text.text) as { text: string }).text).toMatch(/^unavailable: elicitation\/create cannot be asked: this 2025-11-25 request came without a session/);
    expect(served.records.map((record) => record.outcome)).toEqual(['completed']);
  });

  it.each(Object.keys(clients) as (keyof typeof clients)[])('%s: elicitation, sampling and roots are unavailable at once, saying why; the call completes', async (which) => {
    const served = statelessByDefault();
    const client = await clients[which](served.fetch as typeof globalThis.fetch);
    expect(client.version).toBe('2025-11-25');
    const text = ((await client.call()) as McpCallToolResult).content[0] as { text: string };
    const said = (JSON.parse(text.text) as { text: string }).text.split(' | ');
    expect(said).toHaveLength(3);
    for (const [index, method] of ['elicitation/create', 'sampling/createMessage', 'roots/list'].entries()) {
      expect(said[index]).toBe(
        `unavailable: ${method} cannot be asked: this 2025-11-25 request came without a session (stateless Streamable HTTP, as SDK v2's createMcpHandler serves 2025-era requests by default), so the client's answer could not reach this call; serve 2025-11-25 clients in sessions to ask them mid-call`,
      );
    }
    expect(served.records.map((record) => record.outcome)).toEqual(['completed']);
  });
});

describe('inputResponses that are no object: the same JSON-RPC error through SDK v2 and mcpHttpHandler', () => {
  const taskTools = { tools: { 'people.greet': 'optional' as const } };
  /** A 2026-07-28 request of either method, with the headers that revision asks for. */
  const request = (method: 'tools/call' | 'tasks/update', inputResponses: unknown) => {
    const params = method === 'tools/call' ? { name: 'people.greet', arguments: {} } : { taskId: 'any-task' };
    const name = method === 'tools/call' ? 'people.greet' : 'any-task';
    const extensions = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    return new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: { ...params, inputResponses, ...modern({}, { ...capabilities, ...extensions }) } }),
    });
  };
  const errorOf = async (response: Response) => {
    const text = await response.text();
    const body = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { error?: { code: number; message: string; data?: { reason?: string } } };
    return body.error === undefined ? body : { code: body.error.code, message: body.error.message, reason: body.error.data?.reason };
  };

  it.each([null, [], 'yes', 42, true])('%j, to tools/call and tasks/update', async (inputResponses) => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('people.greet'), greet as never, askName as never);
    const options = { requestState: { key }, tasks: taskTools };
    const sdk = createMcpHandler(() => {
      const server = new ServerV2({ name: 'tools', version: '1.0.0' }, { capabilities: {}, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] });
      serveToolsOnMcpServer(server, runtime, options);
      return server;
    });
    const byHand = mcpHttpHandler(runtime, { serverInfo: { name: 'tools', version: '1.0.0' }, ...options });
    for (const method of ['tools/call', 'tasks/update'] as const) {
      const answers = [await errorOf(await sdk.fetch(request(method, inputResponses))), await errorOf(await byHand.fetch(request(method, inputResponses)))];
      expect(answers[0]).toMatchObject({ code: -32602, reason: 'invalid_input_responses' });
      expect(answers[1]).toEqual(answers[0]);
    }
    expect(runtime.records()).toEqual([]);
  });
});

describe('by hand: mcpHttpHandler, a Web handler driven through fetch with no socket', () => {
  /** A 2026-07-28 tools/call of people.greet, with the headers that revision asks for. */
  const post = (handler: { fetch(request: Request): Promise<Response> }, params: Record<string, unknown>, clientCapabilities: unknown = capabilities) =>
    handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'people.greet' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'people.greet', arguments: {}, ...modern(params, clientCapabilities) } }),
      }),
    );

  it('a round trip, a tampered state as a JSON-RPC error in the body, a required capability as HTTP 400 with -32021', async () => {
    const records: CallRecord[] = [];
    const runtime = new CapabilityRuntime({ onRecord: (record) => records.push(record) });
    runtime.registerTypedJsonTool(
      ToolPolicy.json('people.greet'),
      greet as never,
      (async (input: { title?: string }, request: ToolRequest<{ title?: string }>) => {
        if (input.title === undefined) await mcpCreateMessage(request, { key: 'needed', required: true, messages: [], maxTokens: 1 });
        return askName(input, request);
      }) as never,
    );
    const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'people', version: '1.0.0' }, allowedHosts: ['127.0.0.1'], requestState: { key } });
    const first = (await (await post(handler, { arguments: { title: '' } })).json()) as { result: McpInputRequiredResult };
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    const second = (await (await post(handler, { arguments: { title: '' }, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.result.requestState })).json()) as { result: McpCallToolResult };
    expect(second.result).toMatchObject({ resultType: 'complete', structuredContent: { text: 'Hello, Ada!' } });
    const tampered = await post(handler, { arguments: { title: '' }, requestState: `${first.result.requestState.slice(0, -4)}AAAA` });
    expect([tampered.status, await tampered.json()]).toEqual([200, { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid or expired requestState', data: expect.objectContaining({ reason: 'invalid_request_state', refusal: 'tampered' }) } }]);
    const missing = await post(handler, {}, { elicitation: {} });
    expect([missing.status, ((await missing.json()) as { error: unknown }).error]).toEqual([400, expect.objectContaining({ code: -32021, data: { requiredCapabilities: { sampling: {} } } })]);
    expect(records.map((record) => record.outcome)).toEqual(['completed', 'denied', 'denied']);
  });
});

describe('replicas sharing a store', () => {
  /** Two replicas of one server: the same key, one store. */
  function fleet(store: RuntimeStore) {
    return [0, 1].map(() => {
      const runtime = new CapabilityRuntime({ store });
      runtime.registerTypedJsonTool(ToolPolicy.json('people.greet'), greet as never, askName as never);
      const mcp = mcpToolHandlers(runtime, { requestState: { key } });
      return { runtime, call: (params: Record<string, unknown>) => mcp.callTool({ name: 'people.greet', arguments: {}, ...modern(params) }) };
    });
  }

  it('a requestState continues one retry, on whichever replica: a replay is refused on every one', async () => {
    const [a, b] = fleet(memoryStore());
    const first = inputRequired(await a!.call({}));
    const retry = { inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState };
    expect(textOf(await b!.call(retry))).toContain('Hello, Ada!');
    for (const replica of [a!, b!]) await expect(replica.call(retry)).rejects.toMatchObject({ code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state', refusal: 'replayed' } });
    expect(b!.runtime.records().map((record) => [record.outcome, record.errorCode])).toEqual([
      ['completed', undefined],
      ['denied', 'denied'],
    ]);
  });

  it('a store that cannot answer refuses the retry with store_unavailable, running nothing', async () => {
    const store = memoryStore();
    const [a] = fleet({ ...store, claimOnce: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    const first = inputRequired(await a!.call({}));
    const refused = (await a!.call({ inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState })) as McpCallToolResult;
    expect([refused.isError, textOf(refused)]).toEqual([true, expect.stringMatching(/^store_unavailable: the store could not claim a once-only key: the runtime's store did not answer \(connect ECONNREFUSED\)/)]);
  });
});
