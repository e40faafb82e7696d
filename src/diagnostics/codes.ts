/**
 * Every diagnostic the compiler can report. Codes are stable: tools and CI scripts match on them,
 * so a code is never reused for another meaning. JTC1xx are errors, JTC2xx warnings, JTC3xx what
 * a target profile (`--target`) finds: JTC30x refused (errors), JTC35x accepted but not enforced or
 * shown in another form (warnings); JTC4xx what `jtc diff` finds: breaking changes (errors) and
 * compatible ones (info); JTC5xx what `jtc import` finds in its source: JTC50x a tool refused
 * (errors), JTC55x a tool imported with less than its source says (warnings).
 */
export const diagnosticCodes = {
  JTC100: { severity: 'error', title: 'invalid JSON' },
  JTC101: { severity: 'error', title: 'comment in JSON' },
  JTC102: { severity: 'error', title: 'trailing comma' },
  JTC103: { severity: 'error', title: 'duplicate key' },
  JTC104: { severity: 'error', title: 'unsupported keyword' },
  JTC105: { severity: 'error', title: 'invalid UTF-8' },
  JTC106: { severity: 'error', title: 'root is not an object' },
  JTC107: { severity: 'error', title: 'file too large' },
  JTC108: { severity: 'error', title: 'schema-valued additionalProperties' },
  JTC109: { severity: 'error', title: 'tuple items' },
  JTC110: { severity: 'error', title: 'type array' },
  JTC111: { severity: 'error', title: 'boolean schema' },
  JTC112: { severity: 'error', title: 'invalid keyword value' },
  JTC113: { severity: 'error', title: 'schema too large' },
  JTC114: { severity: 'error', title: 'schema nested too deeply' },
  JTC115: { severity: 'error', title: 'too many properties' },
  JTC116: { severity: 'error', title: 'too many enum values' },
  JTC117: { severity: 'error', title: 'number outside the f64 range' },
  JTC120: { severity: 'error', title: 'missing contract field' },
  JTC121: { severity: 'error', title: 'unknown contract field' },
  JTC122: { severity: 'error', title: 'invalid tool name' },
  JTC123: { severity: 'error', title: 'invalid description' },
  JTC124: { severity: 'error', title: 'duplicate tool name' },
  JTC125: { severity: 'error', title: 'generated name collision' },
  JTC126: { severity: 'error', title: 'tool name gives no usable generated name' },
  JTC127: { severity: 'error', title: 'root that can never be a JSON object or array' },
  JTC201: { severity: 'warning', title: 'keyword does not apply to the declared type' },
  JTC202: { severity: 'warning', title: 'unsatisfiable bounds' },
  JTC203: { severity: 'warning', title: 'enum value rejected by its own schema' },
  JTC204: { severity: 'warning', title: 'empty enum' },
  JTC205: { severity: 'warning', title: 'repeated enum value' },
  JTC206: { severity: 'warning', title: 'required property that can never be present' },
  JTC207: { severity: 'warning', title: 'default or example rejected by its own schema' },
  JTC300: { severity: 'error', title: 'tool name the target refuses' },
  JTC301: { severity: 'error', title: 'schema the target refuses' },
  JTC302: { severity: 'error', title: 'over a limit of the target' },
  JTC350: { severity: 'warning', title: 'keyword the target does not enforce' },
  JTC351: { severity: 'warning', title: 'shown to the target in another form' },
  JTC400: { severity: 'error', title: 'tool removed' },
  JTC401: { severity: 'error', title: 'breaking for callers: the input accepts less' },
  JTC402: { severity: 'error', title: 'breaking for consumers: the output may hold more' },
  JTC410: { severity: 'info', title: 'compatible change' },
  JTC411: { severity: 'info', title: 'tool added' },
  JTC500: { severity: 'error', title: 'definition that is no tool' },
  JTC501: { severity: 'error', title: 'TypeScript type with no exact schema' },
  JTC550: { severity: 'warning', title: 'output imported unchecked' },
} as const satisfies Record<string, { severity: 'error' | 'warning' | 'info'; title: string }>;

export type DiagnosticCode = keyof typeof diagnosticCodes;
