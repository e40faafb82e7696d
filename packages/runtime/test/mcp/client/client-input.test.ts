import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { compileContract, compileSchema } from '../../../../../test/support/load-module.js';
import { mcpCreateMessage, mcpElicit, mcpListRoots, type McpAnswerValidator } from '../../../src/mcp/server.js';
import { mcpHttpHandler } from '../../../src/mcp/http/http-server.js';
import { mcpToolClient, type McpClientInput, type McpInputContext, type McpToolCallResult, type McpToolClientOptions } from '../../../src/mcp/client/client.js';
import { requestedSchemaValidator } from '../../../src/mcp/client/client-input.js';
import { CapabilityRuntime, ToolPolicy, type ToolContract, type ToolRequest } from '../../../src/index.js';

/**
 * The typed client answers a 2026-07-28 server's input_required results through the caller's
 * callbacks: a real SDK v2 Client pinned to 2026-07-28, talking Streamable HTTP (through `fetch`,
 * no socket) to the runtime's own mcpHttpHandler, whose tools ask with mcpElicit,
 * mcpCreateMessage and mcpListRoots.
 */
const greet = compileContract(
  JSON.stringify({ name: 'people.greet', description: 'Greets someone.', input: { type: 'object', properties: { ask: { type: 'string' } }, required: ['ask'], additionalProperties: false }, output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }),
) as unknown as ToolContract<{ ask: string }, { text: string }, 'people.greet'>;
const contracts = { greet };
const nameSchema = { type: 'object', properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } }, required: ['name'] };
const nameAnswer = compileSchema(JSON.stringify(nameSchema)) as unknown as McpAnswerValidator<{ name: string }>;
const key = 'a key of at least thirty-two bytes, for the tests';

/** What the tool asks, by its `ask` argument; it says what came back. */
async function people(input: { ask: string }, request: ToolRequest<{ ask: string }>): Promise<{ text: string }> {
  if (input.ask === 'name') {
    const answer = await mcpElicit(request, { key: 'user_name', message: 'What is your name?', requestedSchema: nameSchema, validator: nameAnswer });
    return { text: answer.status === 'accepted' ? `Hello, ${answer.value.name}!` : answer.status };
  }
  if (input.ask === 'proto') {
    const answer = await mcpElicit(request, { key: '__proto__', message: 'What is your name?', requestedSchema: nameSchema, validator: nameAnswer });
    return { text: answer.status === 'accepted' ? `Hello, ${answer.value.name}!` : answer.status };
  }
  if (input.ask === 'url') {
    const answer = await mcpElicit(request, { key: 'sign_in', mode: 'url', message: 'Sign in, please', url: 'https://example.com/sign-in' });
    return { text: answer.status };
  }
  if (input.ask === 'unreadable-sampling') {
    // A server that sends what no sampling message is: a text block without its text.
    const word = await mcpCreateMessage(request, { key: 'word', messages: [{ role: 'user', content: [{ type: 'text', text: 'A word?' }, { type: 'text' }] }] as never, maxTokens: 5 });
    return { text: word.status };
  }
  if (input.ask === 'model-and-roots') {
    const word = await mcpCreateMessage(request, { key: 'word', messages: [{ role: 'user', content: { type: 'text', text: 'A word?' } }], maxTokens: 5 });
    const roots = await mcpListRoots(request, { key: 'roots' });
    return { text: `${word.status === 'accepted' ? (word.value.content as { text: string }).text : word.status} in ${roots.status === 'accepted' ? roots.value.map((root) => root.uri).join(',') : roots.status}` };
  }
  // Three questions, one round each.
  const said: string[] = [];
  for (const question of ['first', 'second', 'third']) {
    const answer = await mcpElicit(request, { key: question, message: `The ${question}?`, requestedSchema: nameSchema, validator: nameAnswer });
    said.push(answer.status === 'accepted' ? answer.value.name : answer.status);
  }
  return { text: said.join(' ') };
}

async function connect(options: McpToolClientOptions) {
  const runtime = new CapabilityRuntime();
  runtime.registerTypedJsonTool(ToolPolicy.json('people.greet'), greet as never, people as never);
  const handler = mcpHttpHandler(runtime, { serverInfo: { name: 'people', version: '1.0.0' }, allowedHosts: ['127.0.0.1'], requestState: { key } });
  /** The tools/call requests as they went on the wire, and the results that came back. */
  const sent: Record<string, unknown>[] = [];
  const answered: Record<string, unknown>[] = [];
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body ?? 'null')) as { method?: string; params?: Record<string, unknown> } | null;
    const response = await handler.fetch(new Request(url, init));
    if (body?.method === 'tools/call') {
      sent.push(body.params!);
      answered.push(((await response.clone().json()) as { result: Record<string, unknown> }).result);
    }
    return response;
  };
  const client = new ClientV2({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const handlerCalls: string[] = [];
  client.setRequestHandler('elicitation/create', () => {
    handlerCalls.push('elicitation/create');
    return { action: 'accept', content: { name: 'from the Client handler' } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  const tools = mcpToolClient(client, contracts, options);
  const call = (ask: string): Promise<McpToolCallResult<{ text: string }>> => tools.call('people.greet', { ask });
  return { tools, call, sent, answered, handlerCalls };
}

const outputOf = (result: McpToolCallResult<{ text: string }>): string => {
  if (!result.ok) throw new Error(`expected an output, got ${result.error.code}: ${result.error.message}`);
  return result.output.text;
};

describe("mcpToolClient answers a 2026-07-28 server's input rounds through the caller's callbacks", () => {
  it('an accepted elicitation: the callback gets the request, the retry carries its answer and the state as it came; the Client handler is not asked', async () => {
    const seen: [unknown, McpInputContext][] = [];
    const { call, sent, answered, handlerCalls } = await connect({
      input: {
        elicitation: (request, context) => {
          seen.push([request, { ...context, signal: undefined }]);
          return { action: 'accept', content: { name: 'Ada', age: 36 } };
        },
      },
    });
    expect(outputOf(await call('name'))).toBe('Hello, Ada!');
    expect(seen).toEqual([
      [
        { message: 'What is your name?', requestedSchema: nameSchema },
        { tool: 'people.greet', key: 'user_name', round: 1, signal: undefined },
      ],
    ]);
    expect(answered.map((result) => result['resultType'])).toEqual(['input_required', 'complete']);
    expect(sent[1]).toMatchObject({ name: 'people.greet', arguments: { ask: 'name' }, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada', age: 36 } } }, requestState: answered[0]!['requestState'] });
    expect(handlerCalls).toEqual([]);
  });

  it('an input request keyed "__proto__" is answered under that key, as the server reads it', async () => {
    const keys: string[] = [];
    const { call, sent } = await connect({ input: { elicitation: (_, context) => (keys.push(context.key), { action: 'accept', content: { name: 'Ada' } }) } });
    expect(outputOf(await call('proto'))).toBe('Hello, Ada!');
    expect(keys).toEqual(['__proto__']);
    expect(Object.keys(sent[1]!['inputResponses'] as object)).toEqual(['__proto__']);
  });

  it('a URL elicitation: the callback gets the page, an accept carries no content', async () => {
    const pages: unknown[] = [];
    const { call, sent } = await connect({ input: { elicitation: (request) => (pages.push(request), { action: 'accept' }) } });
    expect(outputOf(await call('url'))).toBe('accepted');
    expect(pages).toEqual([{ mode: 'url', message: 'Sign in, please', url: 'https://example.com/sign-in' }]);
    expect(sent[1]).toMatchObject({ inputResponses: { sign_in: { action: 'accept' } } });
  });

  it("a callback interrupted by the call's signal is cancelled", async () => {
    const controller = new AbortController();
    const { tools, sent } = await connect({
      input: {
        elicitation: () => {
          controller.abort();
          throw new Error('aborted');
        },
      },
    });
    expect(await tools.call('people.greet', { ask: 'name' }, { signal: controller.signal })).toMatchObject({ ok: false, error: { code: 'cancelled' }, input: { reason: 'callback_failed', key: 'user_name' } });
    expect(sent).toHaveLength(1);
  });

  it('a declined elicitation is sent as the answer; the tool decides what it means', async () => {
    const { call, sent } = await connect({ input: { elicitation: () => ({ action: 'decline' }) } });
    expect(outputOf(await call('name'))).toBe('declined');
    expect(sent[1]).toMatchObject({ inputResponses: { user_name: { action: 'decline' } } });
  });

  it('an answer that breaks the requestedSchema is refused before it is sent: invalid_input with the issues, nothing retried', async () => {
    for (const [content, path, message] of [
      [{ name: '' }, ['name'], 'must have at least 1 characters'],
      [{ age: 3 }, [], 'must have property "name"'],
      [{ name: 'Ada', age: 1.5 }, ['age'], 'must be an integer'],
      [{ name: 'Ada', age: -1 }, ['age'], 'must be >= 0'],
    ] as const) {
      const { call, sent } = await connect({ input: { elicitation: () => ({ action: 'accept', content: content as never }) } });
      const result = await call('name');
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path, message }] }, input: { reason: 'invalid_answer', key: 'user_name', method: 'elicitation/create' } });
      if (!result.ok) expect(result.error.message).toContain('the answer of input.elicitation to "user_name" for "people.greet" was not sent');
      expect(sent).toHaveLength(1);
    }
  });

  it('sampling and roots rounds, each answer checked for its shape; roots that are no file:// URIs are not sent', async () => {
    const input: McpClientInput = {
      sampling: (request) => ({ role: 'assistant', model: 'echo', content: { type: 'text', text: `${request.maxTokens} tokens` } }),
      roots: () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
    };
    const { call, sent } = await connect({ input });
    expect(outputOf(await call('model-and-roots'))).toBe('5 tokens in file:///work');
    expect(sent.map((params) => Object.keys((params['inputResponses'] as object | undefined) ?? {}))).toEqual([[], ['word'], ['roots']]);

    const unreadable = await connect({ input });
    expect(await unreadable.call('unreadable-sampling')).toMatchObject({
      ok: false,
      error: { code: 'handler_failed', message: expect.stringContaining('its messages are no sampling messages: /messages/0/content/1/text must be a string') },
      input: { reason: 'invalid_request', key: 'word', method: 'sampling/createMessage' },
    });
    expect(unreadable.sent).toHaveLength(1);

    const wrong = await connect({ input: { ...input, roots: () => ({ roots: [{ uri: 'https://example.com' }] }) } });
    expect(await wrong.call('model-and-roots')).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['roots', 0, 'uri'] }] }, input: { reason: 'invalid_answer', key: 'roots', method: 'roots/list' } });
    expect(wrong.sent).toHaveLength(2);
    const noMessage = await connect({ input: { ...input, sampling: () => ({ text: 'hello' }) as never } });
    expect(await noMessage.call('model-and-roots')).toMatchObject({ ok: false, error: { code: 'invalid_input' }, input: { reason: 'invalid_answer', key: 'word' } });
  });

  it('the round limit: the input_required after maxInputRounds answered rounds is a failure, not a retry', async () => {
    const elicitation = (_: unknown, context: McpInputContext) => ({ action: 'accept' as const, content: { name: `${context.key}@${context.round}` } });
    const enough = await connect({ input: { elicitation }, maxInputRounds: 3 });
    expect(outputOf(await enough.call('three'))).toBe('first@1 second@2 third@3');
    const limited = await connect({ input: { elicitation }, maxInputRounds: 2 });
    expect(await limited.call('three')).toMatchObject({ ok: false, error: { code: 'handler_failed', message: expect.stringContaining('after 2 rounds') }, input: { reason: 'round_limit', rounds: 2 } });
    expect(limited.sent).toHaveLength(3);
    expect(() => mcpToolClient({ listTools: async () => ({ tools: [] }), callTool: async () => ({}) }, contracts, { maxInputRounds: -1 })).toThrow('maxInputRounds must be a whole number, got -1');
  });

  it('a missing callback, and a callback that throws or rejects, end the call with a failure result and send nothing more', async () => {
    const missing = await connect({ input: { elicitation: () => ({ action: 'decline' }) } });
    expect(await missing.call('model-and-roots')).toMatchObject({ ok: false, error: { code: 'handler_failed', message: expect.stringContaining('no input.sampling callback was given') }, input: { reason: 'no_callback', key: 'word', method: 'sampling/createMessage' } });
    expect(missing.sent).toHaveLength(1);
    for (const elicitation of [
      () => {
        throw new Error('the user closed the window');
      },
      () => Promise.reject(new Error('the user closed the window')),
    ]) {
      const failing = await connect({ input: { elicitation } });
      expect(await failing.call('name')).toMatchObject({ ok: false, error: { code: 'handler_failed', message: expect.stringContaining('the user closed the window') }, input: { reason: 'callback_failed', key: 'user_name' } });
      expect(failing.sent).toHaveLength(1);
    }
  });

  it('without input callbacks the SDK driver answers through the Client handler, as before', async () => {
    const { call, handlerCalls, sent } = await connect({});
    expect(outputOf(await call('name'))).toBe('Hello, from the Client handler!');
    expect(handlerCalls).toEqual(['elicitation/create']);
    expect(sent).toHaveLength(2);
  });
});

describe('requestedSchemaValidator: the elicitation schema as the client checks an answer', () => {
  const check = (schema: unknown, value: unknown) => {
    const validator = requestedSchemaValidator(schema);
    if (typeof validator === 'string') return validator;
    const result = validator.validate(value);
    return result.ok ? 'ok' : result.issues.map((issue) => `${issue.instancePath} ${issue.message}`).join('; ');
  };
  const one = (property: unknown) => ({ type: 'object', properties: { v: property } });

  it('choices, formats, lengths and booleans', () => {
    expect(check(one({ type: 'string', enum: ['a', 'b'] }), { v: 'c' })).toBe('/v must be one of "a", "b"');
    expect(check(one({ type: 'string', oneOf: [{ const: 'x', title: 'X' }] }), { v: 'x' })).toBe('ok');
    expect(check(one({ type: 'array', items: { anyOf: [{ const: 'x' }, { const: 'y' }] }, maxItems: 1 }), { v: ['x', 'z'] })).toBe('/v/1 must be one of "x", "y"; /v must have at most 1 items');
    expect(check(one({ type: 'string', format: 'date' }), { v: '2026-02-30' })).toBe('/v must be date');
    expect(check(one({ type: 'string', format: 'email' }), { v: 'ada@example.com' })).toBe('ok');
    expect(check(one({ type: 'string', maxLength: 2 }), { v: '😀😀' })).toBe('ok');
    expect(check(one({ type: 'boolean' }), { v: 'yes' })).toBe('/v must be boolean');
    expect(check(one({ type: 'string' }), ['v'])).toBe(' must be an object');
  });

  it('a schema the client cannot check is refused, and the call with it', () => {
    expect(check(one({ type: 'object' }), {})).toContain('has a type this client cannot ask');
    expect(check(one({ type: 'string', format: 'hostname' }), {})).toContain('has a format this client cannot check');
    expect(check({ type: 'array' }, {})).toBe('its requestedSchema is no object schema with properties');
  });
});
