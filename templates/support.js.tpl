{{header}}

{{numberTypes}}

export const maxIssues = {{maxIssues}};

/** An issue at `path`, or at its `key` (escaped where `escape`), with its own copy of the path. */
export function issue(path, pointer, schemaPath, keyword, message, params, key, escape) {
  if (key === undefined)
    return { instancePath: pointer, schemaPath, keyword, message, params, path: path.slice() };
  const segment = escape === true && typeof key === "string" && (key.includes("~") || key.includes("/")) ? key.replaceAll("~", "~0").replaceAll("/", "~1") : key;
  return { instancePath: pointer + "/" + segment, schemaPath, keyword, message, params, path: [...path, key] };
}

{{helpers}}

/**
 * The fast path walks an object's keys with for…in, which also visits enumerable keys inherited from
 * Object.prototype. Such keys exist only where something polluted it; then the issue pass, which
 * tests every property it reads for being the object's own, decides alone.
 */
export function objectPrototypeIsClean() {
  for (const _key in Object.prototype)
    return false;
  return true;
}

/** Every issue of a value, from one root's issue pass. */
export function collectIssues(collect, value) {
  const issues = [];
  collect(value, [], "", issues, "#");
  return issues;
}

/** `validate` of one root, called from that root's own function (below), so that its calls to check and collect each have one target. */
export function validateWith(check, collect, value) {
  try {
    const clean = objectPrototypeIsClean();
    if (clean && check(value))
      return { ok: true, value: value };
    const issues = collectIssues(collect, value);
    if (issues.length === 0) {
      if (!clean)
        return { ok: true, value: value };
      issues.push(issue([], "", "#", "type", "does not match the schema", {}));
    }
    const truncated = issues.length > maxIssues;
    return { ok: false, issues: truncated ? issues.slice(0, maxIssues) : issues, truncated };
  }
  catch (error) {
    return { ok: false, issues: [issue([], "", "#", "type", "could not be read: " + describeThrown(error), {})], truncated: false };
  }
}

export function createValidator(is, validate, schema) {
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
