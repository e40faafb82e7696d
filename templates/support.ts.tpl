{{header}}

{{numberTypes}}

/** One step of a path into a value: a property name or an array index. */
export type PathSegment = string | number;

/** One way a value breaks the contract. */
export interface ValidationIssue {
  /** JSON Pointer to the offending value, e.g. `/items/0/name`. */
  readonly instancePath: string;
  /** JSON Pointer to the schema keyword that rejected it, e.g. `#/properties/items/items/properties/name/maxLength`. */
  readonly schemaPath: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Readonly<Record<string, unknown>>;
  /** `instancePath` as keys and indices. */
  readonly path: readonly PathSegment[];
}

export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[]; readonly truncated: boolean };

/** Standard Schema v1 with the Standard JSON Schema v1 trait (https://standardschema.dev). */
export interface StandardProps<T> {
  readonly version: 1;
  readonly vendor: "json-tool-contracts";
  readonly validate: (value: unknown) => { readonly value: T; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string; readonly path: readonly PathSegment[] }[] };
  readonly jsonSchema: {
    readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    readonly output: (options: { readonly target: string }) => Record<string, unknown>;
  };
  readonly types?: { readonly input: T; readonly output: T } | undefined;
}

export interface Validator<T> {
  /** The fast path: true when the value satisfies the schema. Never throws. */
  is(value: unknown): value is T;
  /** Every issue (at most {{maxIssues}}, then `truncated`). Never throws. */
  validate(value: unknown): ValidationResult<T>;
  readonly "~standard": StandardProps<T>;
}

export const maxIssues = {{maxIssues}};

/** An issue at `path`, or at its `key` (escaped where `escape`), with its own copy of the path. */
export function issue(path: PathSegment[], pointer: string, schemaPath: string, keyword: string, message: string, params: Readonly<Record<string, unknown>>, key?: PathSegment, escape?: boolean): ValidationIssue {
  if (key === undefined) return { instancePath: pointer, schemaPath, keyword, message, params, path: path.slice() };
  const segment = escape === true && typeof key === "string" && (key.includes("~") || key.includes("/")) ? key.replaceAll("~", "~0").replaceAll("/", "~1") : key;
  return { instancePath: pointer + "/" + segment, schemaPath, keyword, message, params, path: [...path, key] };
}

{{helpers}}

/** What a generated module exports as `contract`; the runtime registers tools from it. */
export interface ToolContract<I, O, N extends string = string> {
  readonly name: N;
  readonly description: string;
  /** Bounds and values compared exactly (`jtc build --exact-numbers`), or as JS numbers. */
  readonly exactNumbers: boolean;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>>;
  readonly input: Validator<I>;
  readonly output: Validator<O>;
}

export type Collector = (value: unknown, path: PathSegment[], pointer: string, issues: ValidationIssue[], schemaPath: string) => void;

/**
 * The fast path walks an object's keys with for…in, which also visits enumerable keys inherited from
 * Object.prototype. Such keys exist only where something polluted it; then the issue pass, which
 * tests every property it reads for being the object's own, decides alone.
 */
export function objectPrototypeIsClean(): boolean {
  for (const _key in Object.prototype) return false;
  return true;
}

/** Every issue of a value, from one root's issue pass. */
export function collectIssues(collect: Collector, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  collect(value, [], "", issues, "#");
  return issues;
}

/** `validate` of one root, called from that root's own function (below), so that its calls to check and collect each have one target. */
export function validateWith<T>(check: (value: unknown) => boolean, collect: Collector, value: unknown): ValidationResult<T> {
  try {
    const clean = objectPrototypeIsClean();
    if (clean && check(value)) return { ok: true, value: value as T };
    const issues = collectIssues(collect, value);
    if (issues.length === 0) {
      if (!clean) return { ok: true, value: value as T };
      issues.push(issue([], "", "#", "type", "does not match the schema", {}));
    }
    const truncated = issues.length > maxIssues;
    return { ok: false, issues: truncated ? issues.slice(0, maxIssues) : issues, truncated };
  } catch (error) {
    return { ok: false, issues: [issue([], "", "#", "type", "could not be read: " + describeThrown(error), {})], truncated: false };
  }
}

export function createValidator<T>(is: (value: unknown) => boolean, validate: (value: unknown) => ValidationResult<T>, schema: Readonly<Record<string, unknown>>): Validator<T> {
  const jsonSchema = (options: { readonly target: string }): Record<string, unknown> => {
    const copy = copyJsonValue(schema) as Record<string, unknown>;
    if (options.target === "draft-2020-12") return copy;
    if (options.target === "draft-07") {
      if (Object.hasOwn(copy, "$schema")) copy["$schema"] = "http://json-schema.org/draft-07/schema#";
      return copy;
    }
    throw new Error("json-tool-contracts: unsupported JSON Schema target " + JSON.stringify(options.target) + "; use draft-2020-12 or draft-07");
  };
  return {
    is: is as (value: unknown) => value is T,
    validate,
    "~standard": {
      version: 1,
      vendor: "json-tool-contracts",
      validate: (value: unknown) => {
        const result = validate(value);
        return result.ok ? { value: result.value } : { issues: result.issues.map((i) => ({ message: i.message, path: i.path })) };
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}
