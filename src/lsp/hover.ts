import { exportName, generatedNameProblem, toolNameProblem, typeStem } from '../contract/names.js';
import { diagnosticCodes, type DiagnosticCode } from '../diagnostics/codes.js';
import { modulePaths, type EmitKind } from '../output/file-set.js';
import { placeAt } from './cursor.js';
import { describeGroup, describeValue, memberOf, objectKind } from './shape.js';

/** A hover's Markdown and the offsets of the text it is about. */
export interface HoverText {
  readonly markdown: string;
  readonly start: number;
  readonly end: number;
}

/** The contract field whose value names the tool (and so its generated names). */
const toolNameField = 'name';

/**
 * What the text at an offset means: a keyword (its meaning, its value's type, the values it applies
 * to) or a contract field, on its key or its value; and on the tool's name, what the build generates
 * from it.
 */
export function hoverAt(text: string, offset: number, emit: EmitKind): HoverText | undefined {
  const place = placeAt(text, offset);
  if (place?.member === undefined) return undefined;
  const kind = objectKind(place.object.pointer);
  if (kind === undefined) return undefined;
  const { key, value } = place.member;
  if (place.kind === 'value' && kind === 'contract' && key === toolNameField && value.kind === 'string') {
    const markdown = generatedNames(value.value, emit);
    return markdown === undefined ? undefined : { markdown, start: place.start, end: place.end };
  }
  const member = memberOf(kind, key);
  if (member === undefined) return undefined;
  const description = typeof member.entry['description'] === 'string' ? member.entry['description'] : '';
  const appliesTo = member.group === undefined ? '' : ` · for ${describeGroup(member.group)}`;
  const what = kind === 'schema' ? 'keyword' : 'contract field';
  return { markdown: `**\`${key}\`** (${what})${appliesTo}\n\nValue: ${describeValue(member.entry)}.\n\n${description}`, start: place.start, end: place.end };
}

/** The module file, type names and index export a tool name gives, as the emitter writes them. */
function generatedNames(name: string, emit: EmitKind): string | undefined {
  if (toolNameProblem(name) !== undefined || generatedNameProblem(name) !== undefined) return undefined;
  const stem = typeStem(name);
  const files = modulePaths(name, emit)
    .map((path) => `\`${path}\``)
    .join(' and ');
  return [`**tool \`${name}\`**`, '', `- module: ${files}`, `- types: \`${stem}Input\`, \`${stem}Output\``, `- index export: \`${exportName(name)}\``].join('\n');
}

/** A diagnostic code explained: its title and severity, a link to its entry, and what to do. */
export function codeHover(code: DiagnosticCode, hint: string | undefined, link: string): string {
  const { severity, title } = diagnosticCodes[code];
  return `**${code}** (${severity}): ${title}. [all codes](${link})${hint === undefined ? '' : `\n\nTo fix: ${hint}.`}`;
}
