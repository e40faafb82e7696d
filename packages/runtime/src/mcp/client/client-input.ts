import type { ContractValidator, PathSegment, ValidationIssue } from '../../core/contract.js';
import { copyEnvelope, defaultEnvelopeLimits, whyNotEnvelope } from '../../core/envelope.js';
import { ToolError } from '../../core/errors.js';
import { codePointLength } from '../../support/code-point-length.js';
import { describeThrown } from '../../support/describe-thrown.js';
import { isPlainObject } from '../../support/is-plain-object.js';
import { describeIssues, elicitQuestion, rootsQuestion, samplingContentIssues, samplingQuestion, type McpCreateMessageParams, type McpCreateMessageResult, type McpRoot } from '../input-questions.js';
import type { McpAnswerIssue, McpElicitAnswer, Question } from '../input-rounds.js';

/**
 * The client's side of MCP 2026-07-28's multi-round-trip requests: a `tools/call` that ends
 * `input_required` names what the server needs (`inputRequests`, by key); the caller's callbacks
 * answer each, every answer is checked the way the server's helpers check it (./input-questions:
 * the method's result shape, and an accepted elicitation's content against the request's
 * `requestedSchema`) before it is sent, and the call is retried with the answers and the
 * `requestState` echoed as it came.
 */

/** What a callback is told besides the request: the tool, the answer's key, the round (1 for the first `input_required`), and the call's signal. */
export interface McpInputContext {
  readonly tool: string;
  readonly key: string;
  readonly round: number;
  readonly signal: AbortSignal | undefined;
}

/** An `elicitation/create` request of a server: a form (`requestedSchema`, the flat object schema of what to ask) or a page to send the user to. */
export type McpElicitationRequest = { readonly mode?: 'form'; readonly message: string; readonly requestedSchema: Readonly<Record<string, unknown>> } | { readonly mode: 'url'; readonly message: string; readonly url: string };

/** An answer to an elicitation: the form's content (checked against `requestedSchema` before it is sent), or the user's no. */
export type McpElicitationResult = { readonly action: 'accept'; readonly content?: Readonly<Record<string, string | number | boolean | readonly string[]>> } | { readonly action: 'decline' } | { readonly action: 'cancel' };

/** A `sampling/createMessage` request: what the server asks the client's model. */
export type McpSamplingRequest = Omit<McpCreateMessageParams, 'key' | 'required'>;

type Answer<T> = T | Promise<T>;

/**
 * The callbacks that answer a server's input requests. Give only those the client offers; a
 * request whose callback is missing ends the call with a failure. Declare the same capabilities on
 * the SDK `Client` (`capabilities: { elicitation: {}, sampling: {}, roots: {} }`): a server asks
 * only what a request's client capabilities say it can answer.
 */
export interface McpClientInput {
  readonly elicitation?: (request: McpElicitationRequest, context: McpInputContext) => Answer<McpElicitationResult>;
  readonly sampling?: (request: McpSamplingRequest, context: McpInputContext) => Answer<McpCreateMessageResult>;
  readonly roots?: (request: Readonly<Record<string, unknown>>, context: McpInputContext) => Answer<{ readonly roots: readonly McpRoot[] }>;
}

/** Why a call's input round could not be answered; `key` and `method` name the request where there is one. */
export type McpInputFailure =
  | { readonly reason: 'no_callback' | 'callback_failed' | 'invalid_answer' | 'invalid_request'; readonly key: string; readonly method: string }
  | { readonly reason: 'invalid_request'; readonly key?: undefined; readonly method?: undefined }
  | { readonly reason: 'round_limit'; readonly rounds: number };

/** A round's answers by key, or why there are none. */
export type RoundAnswers = { readonly ok: true; readonly inputResponses: Record<string, unknown> } | { readonly ok: false; readonly error: ToolError; readonly input: McpInputFailure };

const methods = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' } as const;
type Method = keyof typeof methods;

/** Answers every request of one `input_required` result, each through its callback and checked; the first that cannot be answered fails the round. */
export async function answerRound(inputRequests: unknown, input: McpClientInput, context: Omit<McpInputContext, 'key'>): Promise<RoundAnswers> {
  const failed = (failure: McpInputFailure, error: ToolError): RoundAnswers => ({ ok: false, error, input: failure });
  const entries = isPlainObject(inputRequests) ? Object.entries(inputRequests) : [];
  if (entries.length === 0) return failed({ reason: 'invalid_request' }, new ToolError('handler_failed', `the server answered the call to "${context.tool}" input_required with no input requests`));
  const inputResponses: Record<string, unknown> = {};
  for (const [key, entry] of entries) {
    const method = isPlainObject(entry) && typeof entry['method'] === 'string' ? entry['method'] : '(none)';
    const refused = (reason: 'no_callback' | 'callback_failed' | 'invalid_answer' | 'invalid_request', error: ToolError) => failed({ reason, key, method }, error);
    const params = isPlainObject(entry) ? (entry['params'] ?? {}) : undefined;
    const request = Object.hasOwn(methods, method) && isPlainObject(params) ? readRequest(method as Method, params) : `it is no elicitation/create, sampling/createMessage or roots/list request: ${describeThrown(entry)}`;
    if (typeof request === 'string') return refused('invalid_request', new ToolError('handler_failed', `the server's input request "${key}" for "${context.tool}" cannot be answered: ${request}`));
    const kind = methods[method as Method];
    const callback = input[kind] as ((request: unknown, context: McpInputContext) => unknown) | undefined;
    if (typeof callback !== 'function') return refused('no_callback', new ToolError('handler_failed', `the server asked ${method} (input request "${key}") for "${context.tool}", and no input.${kind} callback was given`));
    let answer: unknown;
    try {
      answer = await callback(request.params, { ...context, key });
    } catch (error) {
      if (context.signal?.aborted === true) return refused('callback_failed', new ToolError('cancelled', `the call to "${context.tool}" was cancelled while input.${kind} answered "${key}"`));
      return refused('callback_failed', new ToolError('handler_failed', `input.${kind} failed to answer "${key}" for "${context.tool}": ${describeThrown(error)}`));
    }
    // Sent as a plain JSON copy, read once: the checks and the wire see the same answer.
    const copy = copyEnvelope(answer, defaultEnvelopeLimits, false);
    const outcome = copy === undefined ? undefined : await request.question.read(copy);
    if (outcome === undefined || outcome.status === 'invalid') {
      const why = copy === undefined ? `it is not plain JSON: ${whyNotEnvelope(answer, defaultEnvelopeLimits, false)}` : outcome === undefined ? `it is no ${method} result: ${describeThrown(answer)}` : outcome.message;
      const issues = outcome?.status === 'invalid' ? outcome.issues.map(validationIssue) : [];
      return refused('invalid_answer', new ToolError('invalid_input', `the answer of input.${kind} to "${key}" for "${context.tool}" was not sent: ${why}`, issues));
    }
    // Defined, not assigned: an assignment to "__proto__" would set the prototype, and the answer would never be sent.
    Object.defineProperty(inputResponses, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, inputResponses };
}

/** A request as its callback receives it, and the question that checks the answer; or why it cannot be answered. */
function readRequest(method: Method, params: Record<string, unknown>): { readonly params: unknown; readonly question: Question<McpElicitAnswer<unknown>> } | string {
  if (method === 'roots/list') return { params, question: rootsQuestion() };
  if (method === 'sampling/createMessage') {
    if (!Array.isArray(params['messages']) || typeof params['maxTokens'] !== 'number') return 'a sampling request needs messages and maxTokens';
    // The callback is handed the messages as typed: each is read first.
    const unreadable = params['messages'].flatMap((message: unknown, index) =>
      isPlainObject(message) && (message['role'] === 'user' || message['role'] === 'assistant') ? samplingContentIssues(message['content'], ['messages', index, 'content']) : [{ path: ['messages', index], message: 'must be a message with a role of "user" or "assistant"' }],
    );
    if (unreadable.length > 0) return `its messages are no sampling messages: ${describeIssues(unreadable)}`;
    const request = params as unknown as McpSamplingRequest;
    return { params: request, question: samplingQuestion(request) };
  }
  if (typeof params['message'] !== 'string') return 'an elicitation needs a message';
  if (params['mode'] === 'url') {
    if (typeof params['url'] !== 'string') return 'a URL elicitation needs a url';
    return { params, question: elicitQuestion({ mode: 'url', message: params['message'], url: params['url'] }) };
  }
  if (params['mode'] !== undefined && params['mode'] !== 'form') return `the elicitation mode ${describeThrown(params['mode'])} is not one this client knows (form, url)`;
  const validator = requestedSchemaValidator(params['requestedSchema']);
  if (typeof validator === 'string') return validator;
  return { params, question: elicitQuestion({ message: params['message'], requestedSchema: params['requestedSchema'] as Record<string, unknown>, validator }) };
}

function validationIssue(issue: McpAnswerIssue): ValidationIssue {
  const instancePath = issue.path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
  return { instancePath, schemaPath: '', keyword: 'requestedSchema', message: issue.message, params: {}, path: issue.path };
}

/** The formats an elicitation's string may name, checked as JSON Schema's format assertions read them. */
const formats: Readonly<Record<string, (text: string) => boolean>> = {
  email: (text) => /^[^\s@]+@[^\s@]+$/.test(text),
  uri: (text) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(text),
  date: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDate(text),
  'date-time': (text) => /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(text) && isCalendarDate(text.slice(0, 10)),
};

function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

type Check = (value: unknown, path: readonly PathSegment[], issues: ValidationIssue[]) => void;

/**
 * A validator for an elicitation's `requestedSchema`: the flat object of primitive properties the
 * revision allows (strings with length, format or choices; numbers and integers with bounds;
 * booleans; arrays of choices), each property checked by what it declares; a schema of any other
 * shape is refused (its answers could not be checked). Annotations (`title`, `default`, …) check nothing.
 */
export function requestedSchemaValidator(schema: unknown): ContractValidator<Record<string, unknown>> | string {
  if (!isPlainObject(schema) || schema['type'] !== 'object' || (schema['properties'] !== undefined && !isPlainObject(schema['properties']))) return 'its requestedSchema is no object schema with properties';
  const required = schema['required'] ?? [];
  if (!Array.isArray(required) || !required.every((name): name is string => typeof name === 'string')) return 'its requestedSchema\'s "required" is no list of names';
  const checks = new Map<string, Check>();
  for (const [name, property] of Object.entries((schema['properties'] ?? {}) as Record<string, unknown>)) {
    const check = propertyCheck(property);
    if (typeof check === 'string') return `its requestedSchema's property "${name}" ${check}`;
    checks.set(name, check);
  }
  const validate = (value: unknown) => {
    const issues: ValidationIssue[] = [];
    if (!isPlainObject(value)) {
      issues.push(issue([], 'type', 'must be an object'));
    } else {
      for (const name of required) if (!Object.hasOwn(value, name)) issues.push(issue([], 'required', `must have property "${name}"`));
      for (const [name, check] of checks) if (Object.hasOwn(value, name)) check(value[name], [name], issues);
    }
    return issues.length === 0 ? { ok: true as const, value: value as Record<string, unknown> } : { ok: false as const, issues, truncated: false };
  };
  return { validate, is: (value: unknown): value is Record<string, unknown> => validate(value).ok };
}

function issue(path: readonly PathSegment[], keyword: string, message: string): ValidationIssue {
  return { ...validationIssue({ path, message }), keyword };
}

const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** The check of one property, or what makes it no property an elicitation may ask. */
function propertyCheck(property: unknown): Check | string {
  if (!isPlainObject(property)) return 'is no schema';
  const { type } = property;
  if (type === 'boolean') return (value, path, issues) => void (typeof value !== 'boolean' && issues.push(issue(path, 'type', 'must be boolean')));
  if (type === 'number' || type === 'integer') {
    const { minimum, maximum } = property;
    if ((minimum !== undefined && typeof minimum !== 'number') || (maximum !== undefined && typeof maximum !== 'number')) return 'has a bound that is no number';
    return (value, path, issues) => {
      if (typeof value !== 'number' || !Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) issues.push(issue(path, 'type', `must be ${type === 'integer' ? 'an integer' : 'a number'}`));
      else if (minimum !== undefined && value < minimum) issues.push(issue(path, 'minimum', `must be >= ${minimum}`));
      else if (maximum !== undefined && value > maximum) issues.push(issue(path, 'maximum', `must be <= ${maximum}`));
    };
  }
  if (type === 'string') {
    const choices = choicesOf(property['enum'], property['oneOf']);
    if (typeof choices === 'string') return choices;
    const { minLength, maxLength, format } = property;
    if ((minLength !== undefined && !isWhole(minLength)) || (maxLength !== undefined && !isWhole(maxLength))) return 'has a length bound that is no whole number';
    if (format !== undefined && (typeof format !== 'string' || !Object.hasOwn(formats, format))) return `has a format this client cannot check (${describeThrown(format)}; it checks ${Object.keys(formats).join(', ')})`;
    return (value, path, issues) => {
      if (typeof value !== 'string') return void issues.push(issue(path, 'type', 'must be a string'));
      if (choices !== undefined && !choices.includes(value)) issues.push(issue(path, 'enum', `must be one of ${choices.map((choice) => JSON.stringify(choice)).join(', ')}`));
      const length = codePointLength(value);
      if (minLength !== undefined && length < minLength) issues.push(issue(path, 'minLength', `must have at least ${minLength} characters`));
      if (maxLength !== undefined && length > maxLength) issues.push(issue(path, 'maxLength', `must have at most ${maxLength} characters`));
      if (format !== undefined && !formats[format as string]!(value)) issues.push(issue(path, 'format', `must be ${format as string}`));
    };
  }
  if (type === 'array') {
    const items = property['items'];
    const choices = isPlainObject(items) && (items['type'] === 'string' || items['type'] === undefined) ? choicesOf(items['enum'], items['anyOf']) : undefined;
    if (choices === undefined || typeof choices === 'string') return 'is an array that is no list of choices (items with enum or anyOf of const)';
    const { minItems, maxItems } = property;
    if ((minItems !== undefined && !isWhole(minItems)) || (maxItems !== undefined && !isWhole(maxItems))) return 'has an item bound that is no whole number';
    return (value, path, issues) => {
      if (!Array.isArray(value)) return void issues.push(issue(path, 'type', 'must be an array'));
      value.forEach((item: unknown, index) => void (!choices.includes(item as string) && issues.push(issue([...path, index], 'enum', `must be one of ${choices.map((choice) => JSON.stringify(choice)).join(', ')}`))));
      if (minItems !== undefined && value.length < minItems) issues.push(issue(path, 'minItems', `must have at least ${minItems} items`));
      if (maxItems !== undefined && value.length > maxItems) issues.push(issue(path, 'maxItems', `must have at most ${maxItems} items`));
    };
  }
  return `has a type this client cannot ask (${describeThrown(type)}; an elicitation asks string, number, integer, boolean, or an array of choices)`;
}

/** The strings a choice allows: `enum`, or the `const`s of `oneOf`/`anyOf` (titled choices); undefined for none, a string for choices that are no strings. */
function choicesOf(list: unknown, titled: unknown): readonly string[] | undefined | string {
  if (list !== undefined) return Array.isArray(list) && list.every((choice) => typeof choice === 'string') ? list : 'has choices that are not all strings';
  if (titled === undefined) return undefined;
  return Array.isArray(titled) && titled.every((choice) => isPlainObject(choice) && typeof choice['const'] === 'string') ? titled.map((choice) => (choice as { const: string }).const) : 'has titled choices without a string const each';
}
