import { type HelperName, helperCode } from '../codegen/helpers.js';
import { supportModuleName } from '../contract/names.js';
import { generatedHeaderLine } from './marker.js';
import { fillTemplate, readTemplate, type TemplateParts, templateParts } from './template.js';

/**
 * Where a build's support code goes: `inline` (the default), each module carries what it uses and
 * imports nothing; `shared` (`jtc build --support shared`), one support module in the output
 * folder carries what the build's modules use, and each module imports it by relative path.
 */
export type SupportKind = 'inline' | 'shared';

/** What each `--support` kind writes. */
export const supportKinds: Readonly<Record<SupportKind, string>> = {
  inline: 'each module carries the support code it uses and imports nothing',
  shared: 'one support module (jtc-support) in the output folder, which every module imports: a smaller build',
};

/** Exact mode: what a number may arrive as, declared where it is used so that a module needs no runtime import. */
export const exactNumberTypes = `/** A JSON number kept exactly by the runtime's lossless parser (\`parseJson(text, { exactNumbers: true })\`). */
export interface JsonNumber {
  /** The canonical decimal text, e.g. "0.30000000000000000001". */
  readonly decimal: string;
  toString(): string;
}

/** A number as exact mode delivers it: a double when that loses nothing, else a bigint (integers) or a JsonNumber. */
export type NumericValue = number | bigint | JsonNumber;`;

/**
 * The types every module exports, whether it declares them (inline) or re-exports them from the
 * support module (shared); the rest of the support code is private to a module that carries it.
 */
const publicTypes = ['PathSegment', 'ValidationIssue', 'ValidationResult', 'StandardProps', 'Validator', 'ToolContract'];
const publicNumberTypes = ['JsonNumber', 'NumericValue'];

/** The language of one piece of a build: TypeScript, JavaScript, or the declarations beside the JavaScript. */
export type Language = 'ts' | 'js' | 'dts';

interface SupportTemplate {
  readonly whole: TemplateParts;
  /** The code before the helpers and after them, without the header and number types. */
  readonly head: TemplateParts;
  readonly tail: TemplateParts;
}

function supportTemplate(file: string): SupportTemplate {
  const text = readTemplate(file);
  const [head, tail] = text.replace('{{header}}\n\n{{numberTypes}}\n\n', '').split('\n\n{{helpers}}\n\n');
  return { whole: templateParts(text), head: templateParts(head!), tail: templateParts(tail!.trimEnd()) };
}

/** The support module's templates: `support.ts.tpl`, and the JavaScript and declarations `npm run templates` writes from it. */
const templates: Readonly<Record<Language, SupportTemplate>> = { ts: supportTemplate('support.ts.tpl'), js: supportTemplate('support.js.tpl'), dts: supportTemplate('support.d.ts.tpl') };

const declaration = /^(?:export )?(?:declare )?(function|const|type|interface) (\w+)/gm;

/** Drops `export` from each declaration that is not public: how a module carrying its support code keeps it to itself. */
function privatize(text: string): string {
  return text.replace(/^export (function|const|type|interface) (\w+)/gm, (whole, kind: string, name: string) => (publicTypes.includes(name) ? whole : `${kind} ${name}`));
}

/** The public declarations of a declaration text, each with its doc comment (tsc writes a blank line between them). */
function publicDeclarations(text: string): string {
  return text
    .split('\n\n')
    .filter((chunk) => publicTypes.some((name) => new RegExp(`^export (?:declare )?(?:type|interface) ${name}\\b`, 'm').test(chunk)))
    .join('\n\n');
}

/**
 * The support code a module carries inline, before its helpers and after its validators; for
 * declarations, the public types alone, all before (the rest is private to the module).
 */
export function inlineSupport(language: Language, maxIssues: string): { readonly head: string; readonly tail: string } {
  const { head, tail } = templates[language];
  const filled = { head: fillTemplate(head, { maxIssues }), tail: fillTemplate(tail, { maxIssues }) };
  if (language === 'dts') return { head: publicDeclarations(`${filled.head}\n\n${filled.tail}`), tail: '' };
  return { head: privatize(filled.head), tail: privatize(filled.tail) };
}

/** Heads the helpers in the support module: where each is documented and tested. */
const sharedSupportNote = "// The helpers: each is a file of @json-tool-contracts/runtime's src/support/, documented and tested there.";

/**
 * The shared support module of a build: the code every module would carry, and the helpers of
 * `helpers` with those they use (the union of what the build's modules use), every declaration
 * exported. It depends only on that set, the number mode and the generator version.
 */
export function emitSupportModule(helpers: Iterable<HelperName>, exact: boolean, language: Language, maxIssues: string): string {
  const names = [...helpers];
  const code = helperCode(names, exact, language, true);
  return fillTemplate(templates[language].whole, {
    header: supportHeader(exact),
    numberTypes: exact && language !== 'js' ? exactNumberTypes : '',
    maxIssues,
    helpers: [sharedSupportNote, ...code].join('\n\n'),
  });
}

function supportHeader(exact: boolean): string {
  const mode = exact ? 'exact (every digit of bounds and values kept)' : 'default (bounds and values as JS numbers, rounded to the nearest f64)';
  return [generatedHeaderLine('contracts'), '// The support code the modules of this folder import (`jtc build --support shared`): what they use, once.', `// Numbers: ${mode}`].join('\n');
}

/** What the support module declares for a module using `helpers`, in its order: each name, and whether it is a type. */
function supportDeclarations(helpers: Iterable<HelperName>, exact: boolean): { readonly name: string; readonly type: boolean }[] {
  const { head, tail } = templates.ts;
  const texts = [exact ? exactNumberTypes : '', head.join(''), ...helperCode(helpers, exact, 'ts', true), tail.join('')];
  return texts.flatMap((text) => [...text.matchAll(declaration)].map((m) => ({ name: m[2]!, type: m[1] === 'type' || m[1] === 'interface' })));
}

/**
 * The names a generated text uses as identifiers: not inside a string literal or a comment (where
 * user text stands), not after a `.` (a member), not before `:` or `?:` (an object key or a type
 * member: a property that a contract names like a helper).
 */
export function identifiersUsed(text: string): Set<string> {
  const code = text.replace(/"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
  return new Set(code.match(/(?<![.\w$])[A-Za-z_$][\w$]*(?![\w$]|\??:)/g));
}

/**
 * A shared-support module's import of what its `text` uses from the support module, and for
 * TypeScript and declarations the re-export of the public types, which every module exports.
 */
export function supportImports(text: string, language: Language, helpers: Iterable<HelperName>, exact: boolean): string {
  const used = identifiersUsed(text);
  const specifier = `"./${supportModuleName}.${language === 'ts' ? 'js' : 'mjs'}"`;
  const imported = supportDeclarations(helpers, exact).filter((d) => used.has(d.name) && (language === 'ts' || (language === 'js') !== d.type));
  const names = imported.map((d) => (language === 'ts' && d.type ? `type ${d.name}` : d.name));
  const importLine = names.length === 0 ? [] : [`import ${language === 'dts' ? 'type ' : ''}{ ${names.join(', ')} } from ${specifier};`];
  if (language === 'js') return importLine.join('\n');
  const reexported = exact ? [...publicTypes, ...publicNumberTypes] : publicTypes;
  return [...importLine, `export type { ${reexported.join(', ')} } from ${specifier};`].join('\n\n');
}
