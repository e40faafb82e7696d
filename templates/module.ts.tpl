{{header}}

{{imports}}

{{types}}

{{supportHead}}

{{helpers}}

{{hoisted}}

{{validators}}

{{supportTail}}

/**
 * The fast path and the full report of each root, functions of their own (not closures of
 * createValidator's, which both roots would share): each calls one root's functions, which the
 * engine can then inline.
 */
function isInput(value: unknown): boolean {
  try {
    return objectPrototypeIsClean() ? {{checkInput}}(value) : collectIssues({{collectInput}}, value).length === 0;
  } catch {
    return false;
  }
}

function isOutput(value: unknown): boolean {
  try {
    return objectPrototypeIsClean() ? {{checkOutput}}(value) : collectIssues({{collectOutput}}, value).length === 0;
  } catch {
    return false;
  }
}

function validateInput(value: unknown): ValidationResult<{{inputType}}> {
  return validateWith({{checkInput}}, {{collectInput}}, value);
}

function validateOutput(value: unknown): ValidationResult<{{outputType}}> {
  return validateWith({{checkOutput}}, {{collectOutput}}, value);
}

const inputSchema: Readonly<Record<string, unknown>> = {{inputSchema}};

const outputSchema: Readonly<Record<string, unknown>> = {{outputSchema}};

export const contract: ToolContract<{{inputType}}, {{outputType}}, {{name}}> = {
  name: {{name}},
  description: {{description}},
  exactNumbers: {{exactNumbers}},
  inputSchema,
  outputSchema,
  input: /* @__PURE__ */ createValidator<{{inputType}}>(isInput, validateInput, {{inputSchemaForHosts}}),
  output: /* @__PURE__ */ createValidator<{{outputType}}>(isOutput, validateOutput, {{outputSchemaForHosts}}),
};

export default contract;
