/** The spec's limits, checked at build time. */
export const limits = {
  /** UTF-8 bytes of a schema's compact JSON serialization. */
  schemaBytes: 32 * 1024,
  /** Schema levels; the root schema is level 1. */
  depth: 32,
  properties: 128,
  enumValues: 128,
} as const;
