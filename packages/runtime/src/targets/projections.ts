/**
 * What a provider's strict mode is shown of a contract's schema. A projection never widens what
 * the runtime accepts: the runtime validates every call against the contract itself, so keywords a
 * provider does not take are dropped (or, as Anthropic's SDK does, moved into the description)
 * and only the provider's decoder stops enforcing them. What no projection can express is refused
 * with the place it stands. The build-time target profiles report the same rules with positions.
 */
type Schema = Readonly<Record<string, unknown>>;

export type Projection = { readonly ok: true; readonly schema: Record<string, unknown> } | { readonly ok: false; readonly problem: string; readonly pointer: string };

interface Rules {
  readonly provider: string;
  /** Keywords the provider's strict mode takes and enforces, besides the structural ones. */
  readonly kept: ReadonlySet<string>;
  /** Optional properties must become required and nullable (OpenAI) or may stay optional (Anthropic). */
  readonly everyPropertyRequired: boolean;
  /** Keywords moved into the description as `{minimum: 1}` rather than dropped, as Anthropic's SDK does. */
  readonly describeDropped: boolean;
  readonly primitiveEnumOnly: boolean;
  /** A keyword the provider takes only for some values (Anthropic: `minItems` 0 or 1). */
  keeps?(keyword: string, value: unknown): boolean;
}

const structural = ['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'description'];

const openAiRules: Rules = {
  provider: 'OpenAI strict mode',
  kept: new Set([...structural, 'minimum', 'maximum', 'minItems', 'maxItems']),
  everyPropertyRequired: true,
  describeDropped: false,
  primitiveEnumOnly: false,
};

const anthropicRules: Rules = {
  provider: 'Anthropic strict mode',
  kept: new Set([...structural, 'title', 'minItems']),
  everyPropertyRequired: false,
  describeDropped: true,
  primitiveEnumOnly: true,
  keeps: (keyword, value) => keyword !== 'minItems' || value === 0 || value === 1,
};

/** Keywords that constrain nothing a decoder could enforce, so they are dropped without a word. */
const silent = new Set(['$schema', '$id', 'title', 'default', 'examples']);

class Refused extends Error {
  constructor(
    readonly problem: string,
    readonly pointer: string,
  ) {
    super(problem);
  }
}

/** What a build-time target profile reports of a projection, at a pointer relative to the schema. */
export interface ProjectionFinding {
  /** `refused`: no projection can express it; `not-enforced`: left out or moved, the runtime enforces it; `rewritten`: shown otherwise, mapped back by the adapter. */
  readonly kind: 'refused' | 'not-enforced' | 'rewritten';
  readonly pointer: string;
  readonly message: string;
  /** The keyword a `not-enforced` finding is about. */
  readonly keyword?: string;
}

/**
 * One walk for both uses: an adapter stops at the first refusal (it cannot send the tool), a
 * target profile collects every finding with its place. Both therefore apply the same rules.
 */
class Walk {
  readonly findings: ProjectionFinding[] = [];

  constructor(
    readonly rules: Rules,
    private readonly collect: boolean,
  ) {}

  refuse(problem: string, pointer: string): void {
    if (!this.collect) throw new Refused(problem, pointer);
    this.findings.push({ kind: 'refused', pointer, message: problem });
  }

  note(finding: ProjectionFinding): void {
    if (this.collect) this.findings.push(finding);
  }
}

function run(schema: Schema, rules: Rules, collect: boolean): { walk: Walk; projected: Record<string, unknown> } {
  const walk = new Walk(rules, collect);
  if (schema['type'] !== 'object') walk.refuse(`${rules.provider} takes an object as a tool's input; this schema ${schema['type'] === undefined ? 'has no "type"' : `is of type "${String(schema['type'])}"`}`, '');
  return { walk, projected: projectNode(schema, walk, '') };
}

function project(schema: Schema, rules: Rules): Projection {
  try {
    return { ok: true, schema: run(schema, rules, false).projected };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problem: error.problem, pointer: error.pointer };
    throw error;
  }
}

function projectNode(schema: Schema, walk: Walk, pointer: string): Record<string, unknown> {
  const { rules } = walk;
  const type = schema['type'];
  const enumValues = schema['enum'] as readonly unknown[] | undefined;
  if (type === undefined && enumValues === undefined) walk.refuse(`a schema without "type" (any JSON value) cannot be expressed in ${rules.provider}`, pointer);
  if (rules.primitiveEnumOnly && enumValues?.some((v) => typeof v === 'object' && v !== null)) walk.refuse(`${rules.provider} takes only strings, numbers, booleans and null as enum values`, `${pointer}/enum`);
  const projected: Record<string, unknown> = {};
  const moved: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' || keyword === 'items' || keyword === 'required' || keyword === 'additionalProperties') continue;
    if (rules.kept.has(keyword) && (rules.keeps?.(keyword, value) ?? true)) {
      projected[keyword] = value;
      continue;
    }
    if (silent.has(keyword)) continue;
    if (rules.describeDropped) moved.push(`${keyword}: ${JSON.stringify(value)}`);
    walk.note({
      kind: 'not-enforced',
      keyword,
      pointer: `${pointer}/${keyword}`,
      message: `${rules.provider} does not enforce "${keyword}" (${rules.describeDropped ? 'it moves into the description' : 'it is left out of what the model sees'}); the runtime still rejects values that break it`,
    });
  }
  if (type === 'object') Object.assign(projected, projectObject(schema, walk, pointer));
  if (type === 'array' && schema['items'] !== undefined) projected['items'] = projectNode(schema['items'] as Schema, walk, `${pointer}/items`);
  if (moved.length > 0) {
    const description = typeof projected['description'] === 'string' ? `${projected['description']}\n\n` : '';
    projected['description'] = `${description}{${moved.join(', ')}}`;
  }
  return projected;
}

function projectObject(schema: Schema, walk: Walk, pointer: string): Record<string, unknown> {
  const { rules } = walk;
  if (schema['additionalProperties'] !== false) {
    walk.refuse(`${rules.provider} needs every object closed ("additionalProperties": false); this one accepts other properties, which the model would be told it may not send`, pointer);
  }
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Schema>>;
  const required = new Set((schema['required'] ?? []) as readonly string[]);
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) walk.refuse(`"required" names "${name}", which the object does not declare in "properties"`, `${pointer}/required`);
  }
  const projected: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(properties)) {
    const at = `${pointer}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const node = projectNode(child, walk, at);
    const optional = !required.has(name);
    if (optional && rules.everyPropertyRequired) {
      walk.note({ kind: 'rewritten', pointer: at, message: `optional property ${JSON.stringify(name)} is shown to ${rules.provider} as required and nullable; the adapter turns the model's null back into an absent property` });
    }
    Object.defineProperty(projected, name, { value: optional && rules.everyPropertyRequired ? nullable(node, at, walk) : node, enumerable: true, writable: true, configurable: true });
  }
  const names = Object.keys(properties);
  return { properties: projected, required: rules.everyPropertyRequired ? names : names.filter((n) => required.has(n)), additionalProperties: false };
}

/** An optional property for OpenAI strict: required, and null standing for absent. */
function nullable(node: Record<string, unknown>, pointer: string, walk: Walk): Record<string, unknown> {
  const type = node['type'];
  const enumValues = node['enum'] as readonly unknown[] | undefined;
  if (type === 'null' || enumValues?.includes(null)) {
    walk.refuse(`an optional property that may itself be null cannot be made required and nullable for ${walk.rules.provider}: null would not say whether it was left out`, pointer);
  }
  const projected: Record<string, unknown> = { ...node };
  if (type !== undefined) projected['type'] = [type, 'null'];
  if (enumValues !== undefined) projected['enum'] = [...enumValues, null];
  return projected;
}

/** Every finding of a strict projection, for the build-time target profiles. */
export function strictProjectionFindings(schema: Schema, provider: 'openai' | 'anthropic'): readonly ProjectionFinding[] {
  return run(schema, provider === 'openai' ? openAiRules : anthropicRules, true).walk.findings;
}

/** OpenAI strict function parameters: every object closed, every property required (optional ones nullable). */
export function openAiStrictProjection(schema: Schema): Projection {
  return project(schema, openAiRules);
}

/** Anthropic strict `input_schema`: every object closed, primitive enums; unenforced bounds move into the description. */
export function anthropicStrictProjection(schema: Schema): Projection {
  return project(schema, anthropicRules);
}

/**
 * The way back from OpenAI strict: a model fills an optional property it leaves out with null;
 * the contract says absent, so each such null is removed (recursively) before the call.
 */
export function restoreOptionalNulls(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) {
    const items = schema['items'] as Schema | undefined;
    return items === undefined ? value : value.map((item) => restoreOptionalNulls(item, items));
  }
  if (typeof value !== 'object' || value === null || schema['type'] !== 'object') return value;
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Schema>>;
  const required = new Set((schema['required'] ?? []) as readonly string[]);
  const restored: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (member === null && child !== undefined && !required.has(key)) continue;
    Object.defineProperty(restored, key, { value: child === undefined ? member : restoreOptionalNulls(member, child), enumerable: true, writable: true, configurable: true });
  }
  return restored;
}
