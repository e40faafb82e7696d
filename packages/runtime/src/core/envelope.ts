import { defineJsonProperty, isJsonNumber, parseJson } from './json.js';
import { describeThrown } from '../support/describe-thrown.js';
import { hasPlainPrototype } from '../support/has-plain-prototype.js';
import { isPlainObject } from '../support/is-plain-object.js';

/** Bounds on what one call may carry, so hostile input costs little and cannot exhaust the stack. */
export interface EnvelopeLimits {
  /** Nesting depth; the root object or array is depth 1. */
  readonly maxDepth: number;
  /** Values visited in all (containers and scalars). */
  readonly maxNodes: number;
}

export const defaultEnvelopeLimits: EnvelopeLimits = { maxDepth: 256, maxNodes: 1_000_000 };

/**
 * For a value JSON.parse just built, which has plain data properties only: is it within the
 * limits, and did every number fit a double (JSON.parse turns 1e400 into Infinity)?
 */
function parsedWithinLimits(root: unknown, limits: EnvelopeLimits): boolean {
  const values: unknown[] = [root];
  const depths: number[] = [1];
  let nodes = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (++nodes > limits.maxNodes) return false;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return false;
    } else if (typeof value === 'object' && value !== null) {
      if (depth > limits.maxDepth) return false;
      for (const key in value) {
        values.push((value as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

/**
 * JSON text read within the limits: exact mode by `parseJson`; the default mode by the native
 * parser, its result checked, and where that breaks a limit read again by `parseJson`, whose error
 * names the offending number or the limit. Throws on text that is not JSON or breaks a limit.
 */
export function readJsonText(text: string, exactNumbers: boolean, limits: EnvelopeLimits): unknown {
  if (!exactNumbers) {
    const value: unknown = JSON.parse(text);
    if (parsedWithinLimits(value, limits)) return value;
  }
  return parseJson(text, { ...limits, exactNumbers });
}

type Frame = { readonly enter: true; readonly value: unknown; readonly path: string; readonly depth: number } | { readonly enter: false; readonly container: object };

/**
 * Checks that a value is a plain JSON object or array all the way down: no undefined, NaN,
 * ±Infinity, functions, symbols, bigint, cycles, class instances, sparse arrays or accessors
 * (which are never invoked). Iterative, so no nesting can overflow the stack. Returns what is
 * wrong, or undefined.
 */
export function envelopeProblem(root: unknown, limits: EnvelopeLimits = defaultEnvelopeLimits, exactNumbers = false): string | undefined {
  return copyEnvelope(root, limits, exactNumbers) === undefined ? whyNotEnvelope(root, limits, exactNumbers) : undefined;
}

/** What is wrong with a value `copyEnvelope` refused. */
export function whyNotEnvelope(root: unknown, limits: EnvelopeLimits, exactNumbers: boolean): string {
  try {
    if (!isPlainObject(root) && !isPlainArray(root)) return `must be a JSON object or array, got ${describe(root)}`;
    return walk(root, limits, exactNumbers) ?? 'is not a plain JSON value';
  } catch (error) {
    return `could not be inspected: ${describeThrown(error)}`;
  }
}

/**
 * A fresh copy of a plain JSON object or array, built from one read of every property's
 * descriptor (getters are never invoked), or undefined when the value is not one. What a
 * validator then checks, and a handler then receives, is this copy: a caller that changes its
 * object afterwards, or a Proxy that answers differently the next time, changes nothing. Answered
 * without building paths or tracking open containers: a cycle cannot hide, since it runs past
 * maxDepth. Only when this says no does `walk` find out why.
 */
export function copyEnvelope(root: unknown, limits: EnvelopeLimits = defaultEnvelopeLimits, exactNumbers = false): object | undefined {
  try {
    const rootCopy = containerCopy(root);
    if (rootCopy === undefined) return undefined;
    // One stack of (source, target, depth) triples: three arrays cost a call more than the walk of a small value.
    const stack: unknown[] = [root, rootCopy, 1];
    let nodes = 1;
    while (stack.length > 0) {
      const depth = stack.pop() as number;
      const target = stack.pop() as Record<string, unknown>;
      const source = stack.pop() as object;
      if (depth > limits.maxDepth) return undefined;
      // An array is read by its indices (numbers: no key strings are made); an object by its own
      // string keys, refused when it has any symbol key (Reflect.ownKeys, which gives both at once, costs more than the two).
      const isArray = Array.isArray(target);
      const keys = isArray ? undefined : Object.getOwnPropertyNames(source);
      const count = isArray ? arrayLength(source) : Object.getOwnPropertySymbols(source).length === 0 ? keys!.length : undefined;
      if (count === undefined) return undefined;
      for (let i = 0; i < count; i++) {
        const key = isArray ? i : keys![i]!;
        const descriptor = Object.getOwnPropertyDescriptor(source, key);
        if (descriptor === undefined || !('value' in descriptor) || !descriptor.enumerable) return undefined;
        if (++nodes > limits.maxNodes) return undefined;
        let value: unknown = descriptor.value;
        if (typeof value === 'object' && value !== null) {
          if (!(exactNumbers && isJsonNumber(value))) {
            const child = containerCopy(value);
            if (child === undefined) return undefined;
            stack.push(value, child, depth + 1);
            value = child;
          }
        } else if (!isJsonScalar(value, exactNumbers)) {
          return undefined;
        }
        if (key === '__proto__') defineJsonProperty(target, key, value);
        else target[key] = value;
      }
    }
    return rootCopy;
  } catch {
    return undefined;
  }
}

/**
 * An array's length, when its own keys are exactly its indices and "length": the copy is then
 * exactly its JSON elements. Each index is still read by its own descriptor, so a hole is found
 * even where an extra named property makes up the count.
 */
function arrayLength(array: object): number | undefined {
  const length: unknown = Object.getOwnPropertyDescriptor(array, 'length')?.value;
  return typeof length === 'number' && Reflect.ownKeys(array).length === length + 1 ? length : undefined;
}

function isJsonScalar(value: unknown, exactNumbers: boolean): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'bigint':
      return exactNumbers;
    default:
      return value === null;
  }
}

/** An empty container of the same kind, for a plain object or array; undefined for anything else. The prototype is read once. */
function containerCopy(value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype ? [] : undefined;
  return hasPlainPrototype(value) ? {} : undefined;
}

function walk(root: object, limits: EnvelopeLimits, exactNumbers: boolean): string | undefined {
  const stack: Frame[] = [{ enter: true, value: root, path: '', depth: 1 }];
  const open = new Set<object>();
  let nodes = 0;
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (!frame.enter) {
      open.delete(frame.container);
      continue;
    }
    const { value, path, depth } = frame;
    if (++nodes > limits.maxNodes) return `has more than ${limits.maxNodes} values`;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${at(path)}${value} is not a JSON number`;
      continue;
    }
    if (exactNumbers && isExactNumber(value)) continue;
    if (typeof value !== 'object') return `${at(path)}${describe(value)} is not a JSON value`;
    if (depth > limits.maxDepth) return `${at(path)}nesting deeper than ${limits.maxDepth} levels`;
    if (open.has(value)) return `${at(path)}cycle: the value contains itself`;
    open.add(value);
    stack.push({ enter: false, container: value });
    const problem = isPlainArray(value) ? pushArray(value, path, depth, stack) : isPlainObject(value) ? pushObject(value, path, depth, stack) : `${at(path)}${describe(value)} is not a JSON value`;
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function pushArray(array: unknown[], path: string, depth: number, stack: Frame[]): string | undefined {
  if (Reflect.ownKeys(array).length !== array.length + 1) return `${at(path)}an array with holes or extra properties is not JSON`;
  for (let i = array.length - 1; i >= 0; i--) {
    const descriptor = Object.getOwnPropertyDescriptor(array, i);
    if (descriptor === undefined) return `${at(`${path}/${i}`)}a hole in a sparse array is not JSON`;
    if (!('value' in descriptor)) return `${at(`${path}/${i}`)}accessor properties are not JSON`;
    stack.push({ enter: true, value: descriptor.value, path: `${path}/${i}`, depth: depth + 1 });
  }
  return undefined;
}

function pushObject(object: object, path: string, depth: number, stack: Frame[]): string | undefined {
  for (const key of Reflect.ownKeys(object)) {
    if (typeof key === 'symbol') return `${at(path)}symbol-keyed properties are not JSON`;
    const childPath = `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const descriptor = Object.getOwnPropertyDescriptor(object, key)!;
    if (!('value' in descriptor)) return `${at(childPath)}accessor properties are not JSON`;
    if (!descriptor.enumerable) return `${at(childPath)}non-enumerable properties are not JSON`;
    stack.push({ enter: true, value: descriptor.value, path: childPath, depth: depth + 1 });
  }
  return undefined;
}

/** Exact mode's other numbers: a bigint, or a JsonNumber (recognised as generated code does). */
function isExactNumber(value: unknown): boolean {
  return typeof value === 'bigint' || isJsonNumber(value);
}

function isPlainArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype;
}

function at(path: string): string {
  return path === '' ? '' : `${path}: `;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return isPlainArray(value) ? 'array' : `an instance of ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'a class'}`;
  if (typeof value === 'function') return 'a function';
  return typeof value === 'string' ? 'a string' : typeof value === 'bigint' ? 'a bigint' : String(value);
}
