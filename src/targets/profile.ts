/**
 * A target profile: what one model provider or protocol revision accepts of a tool, as data. A
 * rule change is a change to one profile file; `check-targets.ts` interprets every profile alike.
 */
export interface TargetProfile {
  readonly name: string;
  /** What the profile describes, for messages: "OpenAI strict mode". */
  readonly title: string;
  /** Where the rules were taken from, and when they were last checked against it. */
  readonly source: string;
  readonly checked: string;
  readonly toolName: {
    /** The portable mapping (`.` → `_`) is applied first, as the adapters do. */
    readonly portable: boolean;
    readonly pattern: RegExp;
    /** The pattern as the message shows it. */
    readonly rule: string;
  };
  /** MCP: what a non-object output root means there. */
  readonly outputRoot?: 'object-for-structured-content' | 'any-but-older-clients-expect-object';
  /** Strict decoding, with the projection the adapters use for it. */
  readonly strict?: 'openai' | 'anthropic';
  /** Limits on one tool's input schema. */
  readonly schemaLimits?: {
    readonly nesting?: number;
    readonly properties?: number;
    readonly enumValues?: number;
    readonly nameAndEnumCharacters?: number;
    /** A string enum of more than `values` values may hold at most `characters` characters. */
    readonly largeStringEnum?: { readonly values: number; readonly characters: number };
  };
  /** Limits on one request, which carries every tool of the build. */
  readonly requestLimits?: {
    readonly tools?: number;
    readonly strictTools?: number;
    readonly optionalParameters?: number;
  };
  /** Gemini `parameters` (the OpenAPI 3.0 subset). */
  readonly openApiParameters?: {
    readonly propertyName: RegExp;
    readonly propertyNameRule: string;
    /** Keywords a projection leaves out (the provider answers 400 to them). */
    readonly dropped: readonly string[];
  };
}
