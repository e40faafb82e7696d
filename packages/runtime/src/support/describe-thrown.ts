/** Text for any thrown value: String() itself throws for a null-prototype object, a throwing toString or a revoked proxy. */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "a value that cannot be turned into text";
  }
}
