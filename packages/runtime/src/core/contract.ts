/**
 * What the runtime needs of a contract: exactly what a generated module exports as `contract`.
 * Structural, so generated code never imports the runtime and the runtime never imports it.
 */
export type PathSegment = string | number;

export interface ValidationIssue {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly message: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly path: readonly PathSegment[];
}

export type ValidationResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ValidationIssue[]; readonly truncated: boolean };

export interface ContractValidator<T> {
  is(value: unknown): value is T;
  validate(value: unknown): ValidationResult<T>;
}

export interface ToolContract<I, O, N extends string = string> {
  readonly name: N;
  readonly description: string;
  readonly exactNumbers: boolean;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema: Readonly<Record<string, unknown>>;
  readonly input: ContractValidator<I>;
  readonly output: ContractValidator<O>;
}

export type InputOf<C> = C extends ToolContract<infer I, unknown> ? I : never;
export type OutputOf<C> = C extends ToolContract<unknown, infer O> ? O : never;
