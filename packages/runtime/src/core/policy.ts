/** What a tool may do: its name and how many calls it may complete. */
export class ToolPolicy {
  private constructor(
    readonly name: string,
    /** Undefined: unlimited. */
    readonly callBudget: number | undefined,
  ) {}

  static json(name: string): ToolPolicy {
    return new ToolPolicy(name, undefined);
  }

  withCallBudget(calls: number): ToolPolicy {
    if (!Number.isSafeInteger(calls) || calls < 0) throw new RangeError(`call budget must be a non-negative integer, got ${calls}`);
    return new ToolPolicy(this.name, calls);
  }
}

/**
 * What the catalog shows about a tool. The schemas attached here are prompt metadata only: they
 * are listed for a model to read and never validate anything; the contract does that.
 */
export class ToolMetadata {
  private constructor(
    readonly description: string,
    readonly promptInputSchema: Readonly<Record<string, unknown>> | undefined,
    readonly promptOutputSchema: Readonly<Record<string, unknown>> | undefined,
  ) {}

  static of(description: string): ToolMetadata {
    return new ToolMetadata(description, undefined, undefined);
  }

  withInputSchema(schema: Readonly<Record<string, unknown>>): ToolMetadata {
    return new ToolMetadata(this.description, schema, this.promptOutputSchema);
  }

  withOutputSchema(schema: Readonly<Record<string, unknown>>): ToolMetadata {
    return new ToolMetadata(this.description, this.promptInputSchema, schema);
  }
}
