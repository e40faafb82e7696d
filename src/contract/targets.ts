import type { Diagnostic, Position } from '../diagnostics/diagnostic.js';
import { makeDiagnostic } from '../diagnostics/diagnostic.js';
import type { SchemaNode } from '../ir/schema-node.js';
import { plainJson, schemaToJson } from '../subset/to-json.js';
import type { JsonNode } from '../source/json-node.js';
import { contractTargetFindings, optionalParameterCount, setTargetFindings, type TargetFinding } from '../targets/check-targets.js';
import type { TargetProfile } from '../targets/profile.js';
import { targetProfiles } from '../targets/profiles/index.js';

type Schema = Record<string, unknown>;

/** The profiles `--target` names; an unknown name is a RangeError listing the known ones. */
export function profilesNamed(names: readonly string[]): TargetProfile[] {
  return names.map((name) => {
    const profile = targetProfiles.get(name);
    if (profile === undefined) throw new RangeError(`unknown target "${name}"; the targets are ${[...targetProfiles.keys()].join(', ')}`);
    return profile;
  });
}

/** The schema a generated module exports, as plain data: what the targets are shown. */
const exported = (node: SchemaNode): Schema => plainJson(schemaToJson(node)) as Schema;

export function contractFindings(contract: { readonly name: string; readonly input: SchemaNode; readonly output: SchemaNode }, targets: readonly string[]): TargetFinding[] {
  if (targets.length === 0) return [];
  const shown = { name: contract.name, input: exported(contract.input), output: exported(contract.output) };
  return profilesNamed(targets).flatMap((profile) => contractTargetFindings(shown, profile));
}

/** Optional properties of an input, for the request budgets that count them across a build. */
export function optionalParametersOf(input: SchemaNode): number {
  return optionalParameterCount(exported(input));
}

/** What each target says of the whole build, at the tool that crosses a limit; contracts sorted by name. */
export function setFindings(contracts: readonly { readonly file: string; readonly name: string; readonly namePosition: Position; readonly optionalParameters: number }[], targets: readonly string[]): Diagnostic[] {
  return profilesNamed(targets).flatMap((profile) =>
    setTargetFindings(contracts, profile).map(({ index, finding }) => {
      const contract = contracts[index]!;
      return makeDiagnostic(contract.file, { code: finding.code, position: contract.namePosition, pointer: finding.pointer, message: finding.message, hint: finding.hint });
    }),
  );
}

/** Every value's position by JSON Pointer, for findings made on the exported schema. */
export function positionIndex(root: JsonNode): Map<string, Position> {
  const index = new Map<string, Position>();
  const walk = (node: JsonNode): void => {
    index.set(node.pointer, node.position);
    if (node.kind === 'object') for (const member of node.members) walk(member.value);
    else if (node.kind === 'array') for (const item of node.items) walk(item);
  };
  walk(root);
  return index;
}

/** A pointer's position, or its nearest ancestor's (a finding may name a keyword the source leaves out). */
export function positionOf(index: ReadonlyMap<string, Position>, pointer: string, fallback: Position): Position {
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf('/'))) {
    const position = index.get(at);
    if (position !== undefined) return position;
    if (at === '') return fallback;
  }
}
