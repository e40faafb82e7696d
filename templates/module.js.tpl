{{header}}

{{types}}

const maxIssues = {{maxIssues}};

/** An issue at `path`, which becomes the issue's own (each call site passes a fresh copy). */
function issue(path, schemaPath, keyword, message, params) {
  let instancePath = "";
  for (const segment of path) {
    instancePath += "/" + (typeof segment === "number" || !(segment.includes("~") || segment.includes("/")) ? segment : segment.replaceAll("~", "~0").replaceAll("/", "~1"));
  }
  return { instancePath, schemaPath, keyword, message, params, path };
}

{{helpers}}

{{hoisted}}

{{validators}}

/**
 * The fast path walks an object's keys with for…in, which also visits enumerable keys inherited from
 * Object.prototype. Such keys exist only where something polluted it; then the issue pass, which
 * tests every property it reads for being the object's own, decides alone.
 */
function objectPrototypeIsClean() {
  for (const _key in Object.prototype)
    return false;
  return true;
}

/** Every issue of a value, from one root's issue pass. */
function collectIssues(collect, value) {
  const issues = [];
  collect(value, [], issues, "#");
  return issues;
}

/** `validate` of one root, called from that root's own function (below), so that its calls to check and collect each have one target. */
function validateWith(check, collect, value) {
  try {
    const clean = objectPrototypeIsClean();
    if (clean && check(value))
      return { ok: true, value: value };
    const issues = collectIssues(collect, value);
    if (issues.length === 0) {
      if (!clean)
        return { ok: true, value: value };
      issues.push(issue([], "#", "type", "does not match the schema", {}));
    }
    const truncated = issues.length > maxIssues;
    return { ok: false, issues: truncated ? issues.slice(0, maxIssues) : issues, truncated };
  }
  catch (error) {
    return { ok: false, issues: [issue([], "#", "type", "could not be read: " + describeThrown(error), {})], truncated: false };
  }
}

function createValidator(is, validate, schema) {
  const jsonSchema = (options) => {
    const copy = copyJsonValue(schema);
    if (options.target === "draft-2020-12")
      return copy;
    if (options.target === "draft-07") {
      if (Object.hasOwn(copy, "$schema"))
        copy["$schema"] = "http://json-schema.org/draft-07/schema#";
      return copy;
    }
    throw new Error("json-tool-contracts: unsupported JSON Schema target " + JSON.stringify(options.target) + "; use draft-2020-12 or draft-07");
  };
  return {
    is: is,
    validate,
    "~standard": {
      version: 1,
      vendor: "json-tool-contracts",
      validate: (value) => {
        const result = validate(value);
        return result.ok ? { value: result.value } : { issues: result.issues.map((i) => ({ message: i.message, path: i.path })) };
      },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

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
