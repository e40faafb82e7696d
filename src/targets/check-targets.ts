import type { TargetProfile } from './profile.js';
import { portableName, portableNameProblem, strictProjectionFindings, type ProjectionFinding } from '@json-tool-contracts/runtime/internal';

/**
 * What a target profile says of a contract (and of the whole build, for request limits and names
 * that meet once mapped), as findings at JSON Pointers into the contract file. Errors are what the
 * target refuses; warnings what it accepts but does not enforce, or is shown in another form that
 * the adapters map back. The strict rules come from the projections the adapters use.
 */
export type TargetCode = 'JTC300' | 'JTC301' | 'JTC302' | 'JTC350' | 'JTC351';

export interface TargetFinding {
  readonly code: TargetCode;
  /** Into the contract file: `/name`, `/input/properties/q/maxLength`. */
  readonly pointer: string;
  readonly message: string;
  readonly hint: string;
}

type Schema = Readonly<Record<string, unknown>>;

export interface TargetContract {
  readonly name: string;
  /** The checked schemas as the generated module exports them. */
  readonly input: Schema;
  readonly output: Schema;
}

const kindCode: Readonly<Record<ProjectionFinding['kind'], TargetCode>> = { refused: 'JTC301', 'not-enforced': 'JTC350', rewritten: 'JTC351' };

export function contractTargetFindings(contract: TargetContract, profile: TargetProfile): TargetFinding[] {
  const findings: TargetFinding[] = [];
  const add = (code: TargetCode, pointer: string, message: string, hint: string): void => {
    findings.push({ code, pointer, message: `${profile.title}: ${message}`, hint });
  };
  nameFindings(contract.name, profile, add);
  const input = contract.input;
  if (input['type'] !== undefined && input['type'] !== 'object') {
    add('JTC301', '/input/type', `a tool's input must be an object; this one is of type "${String(input['type'])}"`, 'make the input an object with named properties');
  }
  if (profile.outputRoot !== undefined && contract.output['type'] !== 'object') {
    const root = contract.output['type'] === undefined ? 'has no "type"' : `is of type "${String(contract.output['type'])}"`;
    if (profile.outputRoot === 'object-for-structured-content') {
      add('JTC351', '/output', `the output root ${root}: the tool declares no outputSchema and returns its output as JSON text only, since structuredContent must be an object`, 'make the output an object to give clients structured content and its schema');
    } else {
      add(
        'JTC351',
        '/output',
        `the output root ${root}: it travels as structuredContent to clients of MCP 2026-07-28, while clients of 2025-11-25, where structuredContent must be an object, get it as JSON text only (the adapter answers each request by its revision)`,
        'make the output an object to serve every client alike',
      );
    }
  }
  const shown = input['type'] === undefined ? { type: 'object', ...input } : input;
  if (profile.strict !== undefined && shown['type'] === 'object') {
    for (const finding of strictProjectionFindings(shown, profile.strict)) {
      const message = finding.message.startsWith(`${profile.title} `) ? finding.message.slice(profile.title.length + 1) : lowerFirst(finding.message);
      add(kindCode[finding.kind], `/input${finding.pointer}`, message, hintFor(finding));
    }
  }
  if (profile.schemaLimits !== undefined) schemaLimitFindings(input, profile.schemaLimits, add);
  if (profile.openApiParameters !== undefined) openApiFindings(input, '/input', profile.openApiParameters, add);
  return findings;
}

type Add = (code: TargetCode, pointer: string, message: string, hint: string) => void;

function nameFindings(name: string, profile: TargetProfile, add: Add): void {
  const rule = profile.toolName;
  if (rule.portable) {
    const problem = portableNameProblem(name);
    if (problem !== undefined) {
      add('JTC300', '/name', `tool name ${JSON.stringify(name)} ${problem}`, `rename the tool to fit ${rule.rule} once "." becomes "_"`);
      return;
    }
    if (portableName(name) !== name) add('JTC351', '/name', `tool name ${JSON.stringify(name)} is offered as ${JSON.stringify(portableName(name))} (${rule.rule}); the adapters map the model's name back`, 'rename the tool without "." to offer it under its own name');
    return;
  }
  if (!rule.pattern.test(name)) add('JTC300', '/name', `tool name ${JSON.stringify(name)} does not fit ${rule.rule}`, 'rename the tool');
}

function hintFor(finding: ProjectionFinding): string {
  switch (finding.kind) {
    case 'refused':
      return 'close the object, give the schema a "type", or leave this target out; the adapter can also offer the tool without strict mode';
    case 'not-enforced':
      return 'nothing to do if the runtime enforcing it is enough; the model is not held to it while it generates';
    case 'rewritten':
      return 'nothing to do: the adapter maps it back before the call';
  }
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

interface Tally {
  nesting: number;
  properties: number;
  enumValues: number;
  characters: number;
}

function schemaLimitFindings(schema: Schema, limits: NonNullable<TargetProfile['schemaLimits']>, add: Add): void {
  const tally: Tally = { nesting: 0, properties: 0, enumValues: 0, characters: 0 };
  const walk = (node: Schema, pointer: string, depth: number): void => {
    if (node['type'] === 'object') tally.nesting = Math.max(tally.nesting, depth);
    const enumValues = node['enum'] as readonly unknown[] | undefined;
    if (enumValues !== undefined) {
      tally.enumValues += enumValues.length;
      const strings = enumValues.filter((v): v is string => typeof v === 'string');
      const characters = strings.reduce((sum, v) => sum + v.length, 0);
      tally.characters += characters;
      const large = limits.largeStringEnum;
      if (large !== undefined && strings.length > large.values && characters > large.characters) {
        add('JTC302', `${pointer}/enum`, `a string enum of more than ${large.values} values may hold at most ${large.characters} characters; this one holds ${characters} in ${strings.length} values`, 'shorten or split the enum, or check membership in the handler');
      }
    }
    const properties = (node['properties'] ?? {}) as Readonly<Record<string, Schema>>;
    for (const [name, child] of Object.entries(properties)) {
      tally.properties++;
      tally.characters += name.length;
      walk(child, `${pointer}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`, depth + 1);
    }
    if (node['items'] !== undefined) walk(node['items'] as Schema, `${pointer}/items`, depth + 1);
  };
  walk(schema, '/input', 1);
  const check = (limit: number | undefined, value: number, what: string): void => {
    if (limit !== undefined && value > limit) add('JTC302', '/input', `the input schema has ${value} ${what}; the limit is ${limit}`, 'flatten or split the tool');
  };
  check(limits.nesting, tally.nesting, 'levels of nesting');
  check(limits.properties, tally.properties, 'properties in all');
  check(limits.enumValues, tally.enumValues, 'enum values in all');
  check(limits.nameAndEnumCharacters, tally.characters, 'characters of property names and enum values');
}

function openApiFindings(node: Schema, pointer: string, rules: NonNullable<TargetProfile['openApiParameters']>, add: Add): void {
  for (const keyword of rules.dropped) {
    // `"additionalProperties": true` says what leaving it out says.
    if (node[keyword] === undefined || (keyword === 'additionalProperties' && node[keyword] !== false)) continue;
    if (keyword === 'additionalProperties') add('JTC350', `${pointer}/additionalProperties`, '"parameters" does not take "additionalProperties": it is left out, and the runtime still rejects other properties', 'nothing to do if the runtime enforcing it is enough');
    else add('JTC351', `${pointer}/${keyword}`, `"parameters" does not take "${keyword}": it is left out of what the model sees`, 'nothing to do: it constrains nothing');
  }
  const enumValues = node['enum'] as readonly unknown[] | undefined;
  if (enumValues?.some((v) => typeof v !== 'string')) add('JTC301', `${pointer}/enum`, '"parameters" takes only string enum values', 'use strings, or the gemini target (parametersJsonSchema)');
  const properties = (node['properties'] ?? {}) as Readonly<Record<string, Schema>>;
  for (const [name, child] of Object.entries(properties)) {
    const at = `${pointer}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (!rules.propertyName.test(name)) add('JTC301', at, `property name ${JSON.stringify(name)} does not fit ${rules.propertyNameRule}`, 'rename the property, or use the gemini target (parametersJsonSchema)');
    openApiFindings(child, at, rules, add);
  }
  if (node['items'] !== undefined) openApiFindings(node['items'] as Schema, `${pointer}/items`, rules, add);
}

/** Optional properties anywhere in a schema: Anthropic counts them against one request. */
export function optionalParameterCount(schema: Schema): number {
  const properties = (schema['properties'] ?? {}) as Readonly<Record<string, Schema>>;
  const required = new Set((schema['required'] ?? []) as readonly string[]);
  let count = 0;
  for (const [name, child] of Object.entries(properties)) count += (required.has(name) ? 0 : 1) + optionalParameterCount(child);
  return count + (schema['items'] === undefined ? 0 : optionalParameterCount(schema['items'] as Schema));
}

/** What only the whole build shows: one request carries every tool. Each finding belongs to the tool (by index) that crosses. */
export function setTargetFindings(contracts: readonly { readonly name: string; readonly optionalParameters: number }[], profile: TargetProfile): { readonly index: number; readonly finding: TargetFinding }[] {
  const found: { index: number; finding: TargetFinding }[] = [];
  const add = (index: number, code: TargetCode, message: string, hint: string): void => {
    found.push({ index, finding: { code, pointer: '/name', message: `${profile.title}: ${message}`, hint } });
  };
  const limits = profile.requestLimits ?? {};
  const toolLimit = limits.tools ?? limits.strictTools;
  if (toolLimit !== undefined && contracts.length > toolLimit) {
    add(toolLimit, 'JTC302', `one request takes at most ${toolLimit} ${limits.tools === undefined ? 'strict tools' : 'tools'}; the build has ${contracts.length}, and this is number ${toolLimit + 1} by name`, 'offer fewer tools per request, or split the build');
  }
  if (limits.optionalParameters !== undefined) {
    let sum = 0;
    const crossing = contracts.findIndex((c) => {
      sum += c.optionalParameters;
      return sum > limits.optionalParameters!;
    });
    if (crossing >= 0) add(crossing, 'JTC302', `one request takes at most ${limits.optionalParameters} optional parameters across its strict tools; with this tool the build has ${sum}`, 'make parameters required, or offer fewer tools per request');
  }
  // Two names that meet once "." becomes "_" differ only in separators, so they already give the
  // same type names, which every build refuses (JTC125).
  return found;
}
