/**
 * The support code's view of the types a generated exact-mode module declares for itself (so the
 * support files type-check here as they do in the module). Never copied into a module.
 */
export interface JsonNumber {
  readonly decimal: string;
  toString(): string;
}

export type NumericValue = number | bigint | JsonNumber;
