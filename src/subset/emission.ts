import { appendPointer } from '../diagnostics/diagnostic.js';
import { Code, code, lines } from '../codegen/code.js';
import type { SchemaNode } from '../ir/schema-node.js';

/**
 * The shape of generated validator functions, which keyword families write into and
 * `emit/validator.ts` assembles: every object or array shape gets a `check…` function (the fast
 * path) and a `collect…` function (every issue, with its paths), both rendered from the same
 * checks by a pass.
 */

/** What an emitter needs besides the rule: the number mode, and module-level constants. */
export interface EmitContext {
  readonly exactNumbers: boolean;
  /** Declares a module-level constant (built once, at load) and returns its name. */
  hoist(prefix: string, init: Code): Code;
}

export interface EmittedCheck {
  /** An expression that is true when the value breaks the constraint. */
  readonly fails: Code;
  /** An expression for the issue's message, evaluated only on failure. */
  readonly message: Code;
  /** An object literal expression with the issue's parameters. */
  readonly params: Code;
}

/** The functions of one shape. */
export interface ValidatorCode {
  readonly checkName: string;
  readonly collectName: string;
}

/**
 * Where a value sits, for `collect`: the function's mutable path array and, for a value inline in
 * its parent's function, its key; and its JSON Pointer (the issue's `instancePath`), kept as the
 * pass descends: each function takes its value's pointer as `pointer`, and a child function's call
 * is given its value's (a declared name's escaped segment is written out at build time). Arrays are
 * allocated only for an issue; a child function's call pushes and pops the key instead.
 *
 * An issue at a key names the key once, last: `issue(path, pointer, …, key)` appends it to the
 * issue's copy of the path and to the pointer, and `…, key, true` escapes it there where it may
 * hold "~" or "/" (an additional property's key, known only when the pass runs, or such a declared
 * name). Measured with bench/size.js (2026-12-06: the 20 corpus contracts, the gzip of each `.mjs`
 * summed; ajv standalone's 153.5 kB): each call site writing the copy and the pointer out,
 * `[...path, "owner"], pointer + "/owner"`, and each closed object the escaping expression at its
 * two reports, was 125.6 kB shared and 165.9 kB inline (0.82×, 1.08×); that escaping as one
 * helper instead, 124.0 kB shared; the key once, last, as here, 121.5 kB and 163.9 kB (0.79×,
 * 1.07×); the key once but third, in an `issueAt` beside `issue`, 120.7 kB and 164.1 kB (the
 * second function paid in every inline module; these two by rewriting the generated text, not
 * built); no pointer at all (`issue()` walking the path, as
 * before 2026-12-04), 119.4 kB and 161.3 kB (0.78×, 1.05×). Of what is left, the pointer of each
 * child function's call (`pointer + "/owner"`) is 1.0 kB. `issue()` tests the key with `includes`
 * before escaping it: `replaceAll` twice on every unexpected key's issue cost everything.get_sum's
 * `validate` (its 40 invalid samples, 10 such issues) about 300–400 instructions a call.
 */
export interface PathRef {
  readonly base: Code;
  readonly key?: Code;
  /** The key may hold "~" or "/", which its pointer segment escapes. */
  readonly escape?: boolean;
  readonly pointer: Code;
}

const functionPointer = Code.identifier('pointer');
export const functionPath: PathRef = { base: Code.identifier('path'), pointer: functionPointer };
const needsEscape = (segment: string): boolean => segment.includes('~') || segment.includes('/');
const escapeSegment = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');
/** A declared property's name: its pointer segment is written out, escaped, at build time. */
export const named = (name: string): PathRef => ({ base: functionPath.base, key: code`${name}`, escape: needsEscape(name), pointer: code`${functionPointer} + ${`/${escapeSegment(name)}`}` });
/** An array index, which needs no escaping. */
export const indexed = (index: Code): PathRef => ({ base: functionPath.base, key: index, pointer: code`${functionPointer} + "/" + ${index}` });
/** A key known only when the pass runs (an additional property), escaped there. */
export const keyed = (key: Code): PathRef => ({
  base: functionPath.base,
  key,
  escape: true,
  pointer: code`${functionPointer} + "/" + ${key}.replaceAll("~", "~0").replaceAll("/", "~1")`,
});

/**
 * Schema paths in a shape's functions are relative to the shape, and `collect` takes the shape's own
 * path as its `schemaPath` argument: shapes that validate alike (the same user object in ten places)
 * then share one pair of functions, each issue still naming the schema it came from.
 */
const schemaPathAt = (relative: string): Code => (relative === '' ? code`schemaPath` : code`schemaPath + ${relative}`);

/** A statement adding one issue, in `collect`. */
export const issue = (path: PathRef, schemaPath: string, keyword: string, message: Code, params: Code): Code => {
  const at = path.key === undefined ? code`` : path.escape === true ? code`, ${path.key}, true` : code`, ${path.key}`;
  return code`issues.push(issue(${path.base}, ${functionPointer}, ${schemaPathAt(schemaPath)}, ${keyword}, ${message}, ${params}${at}));`;
};

/**
 * How one pass renders the shared checks. `check` is the fast path: it returns false at the first
 * failure and allocates nothing. `collect` reports every issue with its paths.
 */
export interface Pass {
  readonly kind: 'check' | 'collect';
  /** A statement for one keyword check at `path`. */
  failIf(keyword: string, check: EmittedCheck, schemaPath: string, path: PathRef): Code;
  /** The type check (of `keyword`), then `rest` only for values of that type. */
  typed(keyword: string, typeCheck: EmittedCheck, schemaPath: string, path: PathRef, rest: Code): Code;
  /** A statement for a value that is not JSON at all. */
  notJson(value: Code, schemaPath: string, path: PathRef): Code;
  /** A statement that runs a child shape's function; `skipIfValid` for one of many siblings. */
  child(names: ValidatorCode, value: Code, path: PathRef, schemaPath: string, skipIfValid: boolean): Code;
  /** Extra loop condition: collecting stops once there are more issues than a result keeps. */
  readonly loopLimit: string;
}

export const checkPass: Pass = {
  kind: 'check',
  failIf: (_, check) => code`if (${check.fails}) return false;`,
  typed: (_, typeCheck, __, ___, rest) => lines([code`if (${typeCheck.fails}) return false;`, rest]),
  notJson: () => code`return false;`,
  child: (names, value) => code`if (!${Code.identifier(names.checkName)}(${value})) return false;`,
  loopLimit: '',
};

export const collectPass: Pass = {
  kind: 'collect',
  failIf: (keyword, check, schemaPath, path) => code`if (${check.fails}) ${issue(path, appendPointer(schemaPath, keyword), keyword, check.message, check.params)}`,
  typed: (keyword, typeCheck, schemaPath, path, rest) => {
    const report = issue(path, appendPointer(schemaPath, keyword), keyword, typeCheck.message, typeCheck.params);
    if (rest.text === '') return code`if (${typeCheck.fails}) ${report}`;
    return lines([code`if (${typeCheck.fails}) {`, report, code`} else {`, rest, code`}`]);
  },
  notJson: (value, schemaPath, path) => issue(path, schemaPath, 'type', code`"must be a JSON value, got " + ${Code.helper('describeType')}(${value})`, code`{}`),
  // An array item that passes the fast check has nothing to report, so of many items only the
  // failing ones are collected. The fast check is the verdict only while Object.prototype has no
  // enumerable key (its key walk would count an inherited one), which the module's
  // `objectPrototypeIsClean` tells; the issue pass also runs where it does not. A property is
  // collected at once: checking it first would walk the failing path again at every level.
  child: (names, value, path, schemaPath, skipIfValid) => {
    const call = code`${Code.identifier(names.collectName)}(${value}, ${path.base}, ${path.pointer}, issues, ${schemaPathAt(schemaPath)});`;
    const collect = path.key === undefined ? call : lines([code`${path.base}.push(${path.key});`, call, code`${path.base}.pop();`]);
    return skipIfValid ? lines([code`if (!(objectPrototypeIsClean() && ${Code.identifier(names.checkName)}(${value}))) {`, collect, code`}`]) : collect;
  },
  loopLimit: ' && issues.length <= maxIssues',
};

/** What a family's emitter is given for one value: the pass, where the value is, and how to check a child. */
export interface EmitScope {
  readonly pass: Pass;
  readonly context: EmitContext;
  readonly value: Code;
  readonly path: PathRef;
  /** The schema's path relative to the shape being emitted. */
  readonly schemaPath: string;
  /** Names the functions of child shapes (`Input` → `InputItems`). */
  readonly stem: string;
  /** Statements checking `value` against a child schema in this scope's pass; `isItem` for one of many siblings. */
  child(schema: SchemaNode, value: Code, path: PathRef, stem: string, isItem?: boolean): Code;
  /** One statement per keyword check, at this scope's value. */
  failAll(checks: readonly (readonly [keyword: string, check: EmittedCheck])[]): Code[];
}
