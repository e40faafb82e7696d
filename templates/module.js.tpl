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
function isInput(value) {
  try {
    return objectPrototypeIsClean() ? {{checkInput}}(value) : collectIssues({{collectInput}}, value).length === 0;
  }
  catch {
    return false;
  }
}

function isOutput(value) {
  try {
    return objectPrototypeIsClean() ? {{checkOutput}}(value) : collectIssues({{collectOutput}}, value).length === 0;
  }
  catch {
    return false;
  }
}

function validateInput(value) {
  return validateWith({{checkInput}}, {{collectInput}}, value);
}

function validateOutput(value) {
  return validateWith({{checkOutput}}, {{collectOutput}}, value);
}

const inputSchema = {{inputSchema}};

const outputSchema = {{outputSchema}};

export const contract = {
  name: {{name}},
  description: {{description}},
  exactNumbers: {{exactNumbers}},
  inputSchema,
  outputSchema,
  input: /* @__PURE__ */ createValidator(isInput, validateInput, {{inputSchemaForHosts}}),
  output: /* @__PURE__ */ createValidator(isOutput, validateOutput, {{outputSchemaForHosts}}),
};

export default contract;
