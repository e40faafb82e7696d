// A Streamable HTTP MCP server built as docs/mcp-servers.md tells users to, serving both MCP
// revisions from one endpoint (docs/mcp-revisions.md): a 2026-07-28 request (it carries the
// `_meta` envelope) is answered statelessly by SDK v2's createMcpHandler, every other request by a
// 2025-11-25 session (initialize, Mcp-Session-Id). The tools come from contracts
// (contracts/*.contract.json, compiled by `jtc build --emit js` into generated/) and run on the
// runtime; prompts, resources and completion are SDK v2's McpServer's own, served beside them.
// Tools that ask the client for input (elicitation, sampling, roots) do it through the runtime's
// helpers: a request to the client mid-call under 2025-11-25, an input_required round with a sealed
// requestState under 2026-07-28. The one prompt that asks (test_input_required_result_prompt) is
// the McpServer's, with SDK v2's own inputRequired: the runtime serves tools only.
// Six tools are served as MCP tasks (the tasks extension, SEP-2663, at 2026-07-28: `tasks` below):
// to a client that declares the extension, a call of one that outlasts its first turn answers with a
// task, which tasks/get, tasks/update and tasks/cancel follow. `greet`, the suite's synchronous tool
// with a plain-text answer, is the McpServer's: the runtime's results lead with their output as JSON.
// The official conformance suite runs against it at both revisions (test/examples/mcp-conformance.test.ts).
//   PORT=3000 npm run example:conformance   ->  http://127.0.0.1:3000/mcp
//   JTC_BY_HAND=1 PORT=3000 npm run example:conformance   ->  the tools alone, served by hand (no SDK)
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_SERVICE_NAME=conformance npm run example:conformance
//     ->  spans and metrics over OTLP (telemetry.mjs; without the variables no SDK is loaded)
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { CapabilityRuntime, ToolError, ToolMetadata, ToolPolicy, withContent } from '@json-tool-contracts/runtime';
import { mcpContext, mcpCreateMessage, mcpElicit, mcpListRoots, mcpLog, mcpProgress, serveToolsOnMcpServer } from '@json-tool-contracts/runtime/mcp';
import { mcpHttpHandler, mcpNodeListener } from '@json-tool-contracts/runtime/mcp/http';
import { acceptedContent, completable, createMcpHandler, hostHeaderValidationResponse, inputRequired, isLegacyRequest, McpServer, ResourceTemplate, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { z } from 'zod';
import * as contracts from './generated/index.mjs';
import { telemetryObserver } from './telemetry.mjs';

/** A 1x1 red PNG and a 1-sample WAV, base64. */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const wav = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A pause that ends early when the call is cancelled (`tasks/cancel`): its handler stops working. */
const work = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
/** The tool's output: the client's answer as the suite expects it back (accepted content passed the question's validator). */
function elicited(answer) {
  if (answer.status === 'accepted') return { action: 'accept', content: answer.value };
  if (answer.status === 'declined' || answer.status === 'cancelled') return { action: answer.status === 'declined' ? 'decline' : 'cancel' };
  throw ToolError.denied(`the elicitation failed: ${answer.message}`);
}

/** An answer the tool cannot do without: anything but an accepted one ends the call with the reason. */
function accepted(answer) {
  if (answer.status === 'accepted') return answer.value;
  throw ToolError.denied(`no answer (${answer.status})${answer.message === undefined ? '' : `: ${answer.message}`}`);
}

const askName = (request, key, message = 'What is your name?') =>
  mcpElicit(request, { key, message, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, validator: z.object({ name: z.string() }) });
const askConfirm = (request) => mcpElicit(request, { key: 'confirm', message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, validator: z.object({ ok: z.boolean() }) });
const askModel = (request, key, text, maxTokens, required = false) => mcpCreateMessage(request, { key, required, messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });
const textOf = (message) => message.content.text ?? JSON.stringify(message.content);

/** The tools of the input-required-result-* scenarios, and the stateless scenario's probes. */
function registerAskingTools(register) {
  register(contracts.testInputRequiredResultElicitation, async (_, request) => ({ greeting: `Hello, ${accepted(await askName(request, 'user_name')).name}!` }));
  register(contracts.testInputRequiredResultSampling, async (_, request) => ({ answer: textOf(accepted(await askModel(request, 'capital_question', 'What is the capital of France?', 100))) }));
  register(contracts.testInputRequiredResultListRoots, async (_, request) => ({ roots: accepted(await mcpListRoots(request, { key: 'client_roots' })).map((root) => root.uri) }));
  register(contracts.testInputRequiredResultRequestState, async (_, request) => {
    const { ok } = accepted(await askConfirm(request));
    // Round 2 or later: the requestState of round 1 came back and passed its checks (a refused one never reaches the handler).
    const context = mcpContext(request);
    if (context?.protocolVersion === '2026-07-28' && (context.inputRound?.round ?? 1) < 2) throw ToolError.denied('the answer came without the requestState it answers');
    return { status: 'state-ok', confirmed: ok };
  });
  register(contracts.testInputRequiredResultMultipleInputs, async (_, request) => {
    const [name, greeting, roots] = await Promise.all([askName(request, 'user_name'), askModel(request, 'greeting', 'Generate a greeting', 50), mcpListRoots(request, { key: 'client_roots' })]);
    return { name: accepted(name).name, greeting: textOf(accepted(greeting)), roots: accepted(roots).map((root) => root.uri) };
  });
  register(contracts.testInputRequiredResultMultiRound, async (_, request) => {
    const { name } = accepted(await askName(request, 'step1', 'Step 1: What is your name?'));
    const { color } = accepted(
      await mcpElicit(request, { key: 'step2', message: 'Step 2: What is your favorite color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] }, validator: z.object({ color: z.string() }) }),
    );
    return { name, color };
  });
  register(contracts.testInputRequiredResultTamperedState, async (_, request) => ({ confirmed: accepted(await askConfirm(request)).ok }));
  register(contracts.testInputRequiredResultCapabilities, async (_, request) => {
    // Each question goes out only if the client declared what answering it needs; the other says unavailable.
    const [name, answer] = await Promise.all([askName(request, 'user_name'), askModel(request, 'capital_question', 'What is the capital of France?', 100)]);
    return { name: name.status === 'accepted' ? name.value.name : name.status, answer: answer.status === 'accepted' ? textOf(answer.value) : answer.status };
  });
  register(contracts.testMissingCapability, async (_, request) => ({ answer: textOf(accepted(await askModel(request, 'answer', 'Say something.', 10, true))) }));
  register(contracts.testStreamingElicitation, async (_, request) => ({ answer: accepted(await askName(request, 'answer')).name }));
}

/**
 * The tools of the tasks-* scenarios. Each works for a while before it answers or asks, so that a
 * call from a client that declares the tasks extension becomes a task; a question asked within the
 * call's first turn would be an input_required round of its tools/call instead (test_tool_with_task's is).
 */
function registerTaskTools(register) {
  register(contracts.slowCompute, async ({ seconds, label }, request) => {
    await work(seconds * 1000, request.signal);
    return label === undefined ? { seconds } : { seconds, label };
  });
  register(contracts.failingJob, async (_, request) => {
    await work(1000, request.signal);
    throw ToolError.denied('the job failed, as this one always does');
  });
  register(contracts.protocolErrorJob, async (_, request) => {
    await work(100, request.signal);
    throw new Error('the job crashed');
  });
  register(contracts.confirmDelete, async ({ filename }, request) => {
    await work(100, request.signal);
    const { confirm } = accepted(await mcpElicit(request, { key: 'confirm', message: `Delete ${filename}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] }, validator: z.object({ confirm: z.boolean() }) }));
    return { filename, deleted: confirm };
  });
  register(contracts.multiInput, async (_, request) => {
    await work(100, request.signal);
    const [first, second] = await Promise.all([askName(request, 'first', 'First name?'), askName(request, 'second', 'Second name?')]);
    return { first: accepted(first).name, second: accepted(second).name };
  });
  register(contracts.testToolWithTask, async (_, request) => {
    const { name } = accepted(await askName(request, 'user_name'));
    await work(500, request.signal);
    return { greeting: `Hello, ${name}!` };
  });
}

/** Which tools a client that declares the tasks extension may get as tasks; `required` ones only as tasks. */
const tasks = {
  tools: { slow_compute: 'optional', failing_job: 'required', protocol_error_job: 'optional', confirm_delete: 'optional', multi_input: 'optional', test_tool_with_task: 'required' },
  ttlMs: 10 * 60_000,
  pollIntervalMs: 500,
};

function toolRuntime(observer) {
  const runtime = new CapabilityRuntime({ observer });
  const register = (contract, handler) => runtime.registerTypedJsonTool(ToolPolicy.json(contract.name), contract, handler);
  register(contracts.testSimpleText, () => ({ message: 'This is a simple text response for testing.' }));
  register(contracts.testImageContent, () => withContent({ width: 1, height: 1 }, [{ type: 'image', data: png, mimeType: 'image/png' }]));
  register(contracts.testAudioContent, () => withContent({ durationMs: 0 }, [{ type: 'audio', data: wav, mimeType: 'audio/wav' }]));
  register(contracts.testEmbeddedResource, () =>
    withContent({ uri: 'test://embedded-resource' }, [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }]),
  );
  register(contracts.testMultipleContentTypes, () =>
    withContent({ parts: 3 }, [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ]),
  );
  register(contracts.testToolWithLogging, async (_, request) => {
    await mcpLog(request, 'info', 'Tool execution started');
    await pause(50);
    await mcpLog(request, 'info', 'Tool processing data');
    await pause(50);
    await mcpLog(request, 'info', 'Tool execution completed');
    return { logged: 3 };
  });
  register(contracts.testLoggingTool, async (_, request) => {
    await mcpLog(request, 'info', 'Diagnostic trace logging activated');
    return { logged: 1 };
  });
  register(contracts.testErrorHandling, () => {
    throw ToolError.denied('This tool intentionally returns an error for testing');
  });
  register(contracts.testToolWithProgress, async (_, request) => {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await pause(50);
      await mcpProgress(request, progress, { total: 100 });
    }
    return { steps: 3 };
  });
  register(contracts.testSampling, async ({ prompt }, request) => {
    const answer = await mcpCreateMessage(request, { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    if (answer.status !== 'accepted') throw ToolError.denied(`sampling failed: ${answer.message}`);
    return { response: `LLM response: ${answer.value.content.text ?? JSON.stringify(answer.value.content)}` };
  });
  register(contracts.testElicitation, async ({ message }, request) =>
    elicited(
      await mcpElicit(request, {
        message,
        requestedSchema: { type: 'object', properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } }, required: ['username', 'email'] },
        validator: z.object({ username: z.string(), email: z.string() }),
      }),
    ),
  );
  register(contracts.testElicitationSep1034Defaults, async (_, request) =>
    elicited(
      await mcpElicit(request, {
        message: 'Please review the defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            age: { type: 'integer', default: 30 },
            score: { type: 'number', default: 95.5 },
            status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', default: true },
          },
        },
        validator: z.object({ name: z.string(), age: z.number().int(), score: z.number(), status: z.enum(['active', 'inactive', 'pending']), verified: z.boolean() }).partial(),
      }),
    ),
  );
  register(contracts.testElicitationSep1330Enums, async (_, request) =>
    elicited(
      await mcpElicit(request, {
        message: 'Please choose',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
          },
        },
        validator: z.object({ untitledSingle: z.string(), titledSingle: z.string(), legacyEnum: z.string(), untitledMulti: z.array(z.string()), titledMulti: z.array(z.string()) }).partial(),
      }),
    ),
  );
  // The listing shows the 2020-12 schema the suite asks for ($schema, $defs, $ref); the contract, which validates, says the same without a reference.
  const shown = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  };
  registerAskingTools(register);
  registerTaskTools(register);
  runtime.registerTypedJsonToolWithMetadata(ToolPolicy.json('json_schema_2020_12_tool'), ToolMetadata.of('Tool with JSON Schema 2020-12 features').withInputSchema(shown), contracts.jsonSchema202012Tool, (input) => ({ received: input }));
  return runtime;
}

/** The prompts, resources and completion of SDK v2's McpServer, and the runtime's tools beside them: one per 2025 session or 2026 request. */
function mcpServer(runtime) {
  const server = new McpServer({ name: 'jtc-conformance', version: '1.0.0' }, { capabilities: { logging: {}, completions: {} } });
  server.registerResource('static-text', 'test://static-text', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }));
  server.registerResource('static-binary', 'test://static-binary', { mimeType: 'image/png' }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: png }] }));
  server.registerResource('template', new ResourceTemplate('test://template/{id}/data', { list: undefined }), { mimeType: 'application/json' }, (uri, { id }) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  }));
  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'A prompt with arguments.', argsSchema: z.object({ arg1: completable(z.string(), (value) => ['test1', 'test2', 'test3'].filter((option) => option.startsWith(value))), arg2: z.string() }) },
    ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  );
  server.registerPrompt('test_prompt_with_embedded_resource', { description: 'A prompt with an embedded resource.', argsSchema: z.object({ resourceUri: z.string() }) }, ({ resourceUri }) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }));
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image.' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  const contextSchema = z.object({ context: z.string() });
  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that asks the user for its context first.' }, (ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_context', contextSchema);
    if (answer === undefined) return inputRequired({ inputRequests: { user_context: inputRequired.elicit({ message: 'What context should the prompt use?', requestedSchema: contextSchema }) } });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${answer.context}` } }] };
  });
  // McpServer has no subscriptions of its own: the low-level server takes them (nothing here changes, so nothing is sent).
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler('resources/subscribe', () => ({}));
  server.server.setRequestHandler('resources/unsubscribe', () => ({}));
  server.registerTool('greet', { description: 'Greets someone by name, synchronously.', inputSchema: z.object({ name: z.string() }) }, ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
  serveToolsOnMcpServer(server, runtime, { requestState, tasks });
  return server;
}

const runtime = toolRuntime(await telemetryObserver());
/** Seals every 2026-07-28 requestState: servers behind one address share it (MCP_REQUEST_STATE_KEY), a single process may make its own. */
const requestState = { key: process.env.MCP_REQUEST_STATE_KEY ?? randomBytes(32) };
const port = Number(process.env.PORT ?? 3000);
const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
/** 2026-07-28: stateless, every request answered by a server of its own. */
const modern = createMcpHandler(() => mcpServer(runtime), { legacy: 'reject' });
/** 2025-11-25: a session per initialize. */
const sessions = new Map();

async function legacy(request) {
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId !== null) {
    // A session this server ended (DELETE) or never began: the client must initialize again.
    const known = sessions.get(sessionId);
    return known === undefined ? Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 }) : known.handleRequest(request);
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    enableDnsRebindingProtection: true,
    allowedHosts,
    onsessioninitialized: (id) => sessions.set(id, transport),
  });
  transport.onclose = () => sessions.delete(transport.sessionId);
  await mcpServer(runtime).connect(transport);
  return transport.handleRequest(request);
}

/** One endpoint for both revisions: a request without the 2026-07-28 `_meta` envelope is 2025-era. */
async function serve(request) {
  if (new URL(request.url).pathname !== '/mcp') return new Response(null, { status: 404 });
  const rejected = hostHeaderValidationResponse(request, allowedHosts.map((host) => host.split(':')[0]));
  if (rejected !== undefined) return rejected;
  return (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
}

// JTC_BY_HAND=1: the same tools with no SDK, both revisions through the runtime's mcpHttpHandler (tools only: no prompts, resources or completion).
const byHand = process.env.JTC_BY_HAND === '1' ? mcpHttpHandler(runtime, { serverInfo: { name: 'jtc-conformance', version: '1.0.0' }, allowedHosts, requestState, tasks }) : undefined;
createServer(mcpNodeListener(byHand ?? { fetch: serve })).listen(port, '127.0.0.1', () => console.log(`MCP server on http://127.0.0.1:${port}/mcp`));
