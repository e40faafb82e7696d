import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The few functions a generated module may need, copied into it (only those it uses) so that it
 * runs with no import at all. Each is an ordinary TypeScript file in `src/support/`, type-checked and
 * unit-tested like any other code (`name.ts`, or `name.default.ts` and `name.exact.ts` where exact
 * mode differs: a number may also arrive as a bigint or a JsonNumber). A module gets the file's
 * text without its imports and `export` keywords; what a helper needs of the others is derived
 * from the names its text uses, never listed by hand.
 */
export type HelperName =
  | 'isObjectRecord'
  | 'hasPlainPrototype'
  | 'isPlainObject'
  | 'absenceNote'
  | 'codePointLength'
  | 'isJsonValue'
  | 'describeType'
  | 'jsonEqual'
  | 'jsonNumberBrand'
  | 'isJsonNumber'
  | 'isJsonNumberText'
  | 'jsonNumber'
  | 'isNumeric'
  | 'decimalOf'
  | 'decimalKey'
  | 'compareDecimal'
  | 'hostJsonSchema'
  | 'copyJsonValue'
  | 'describeThrown';

/** In the order they are written into a module. */
const helperOrder: readonly HelperName[] = [
  'isObjectRecord',
  'hasPlainPrototype',
  'isPlainObject',
  'absenceNote',
  'codePointLength',
  'isJsonValue',
  'describeType',
  'jsonEqual',
  'jsonNumberBrand',
  'isJsonNumber',
  'isJsonNumberText',
  'jsonNumber',
  'isNumeric',
  'decimalOf',
  'decimalKey',
  'compareDecimal',
  'hostJsonSchema',
  'copyJsonValue',
  'describeThrown',
];

export function isHelperName(name: string): name is HelperName {
  return (helperOrder as readonly string[]).includes(name);
}

/**
 * The support files belong to the runtime package, which runs them too, and ships them as source
 * (`src/support/`) beside their compiled JavaScript (`dist/support/`).
 */
const runtimeFolder = new URL('./', pathToFileURL(createRequire(import.meta.url).resolve('@json-tool-contracts/runtime/package.json')));
const supportFolder = new URL('src/support/', runtimeFolder);
const fileStem = (name: HelperName): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Their JavaScript, as `tsc` compiled them (for `--emit js`, which then needs no compiler). */
const compiledFolder = new URL('dist/support/', runtimeFolder);

const texts = new Map<string, string>();

/**
 * A helper's code as a module carries it: the support file without its imports and `export`s.
 * `exported`: with its `export`s, as the shared support module (`--support shared`) carries it;
 * `dts` is then its declarations, as `tsc` wrote them.
 */
export function helperText(name: HelperName, exact: boolean, language: 'ts' | 'js' | 'dts' = 'ts', exported = false): string {
  const key = `${name} ${exact} ${language} ${exported}`;
  const known = texts.get(key);
  if (known !== undefined) return known;
  const folder = language === 'ts' ? supportFolder : compiledFolder;
  const extension = language === 'dts' ? 'd.ts' : language;
  const text = readSupport(folder, `${fileStem(name)}.${exact ? 'exact' : 'default'}.${extension}`) ?? readSupport(folder, `${fileStem(name)}.${extension}`);
  if (text === undefined) throw new Error(`no support file for ${name} (${extension}${language === 'ts' ? '' : ': run npm run build'})`);
  // A module carries the code without the doc comments of its declarations, which every module
  // would repeat (about a third of the helpers' size): they stay in the support files, which the
  // module's helpers section names (`supportNote`). Comments inside a function, on why it does
  // what it does, stay with the code.
  const stripped = text
    .replace(/^import [^\n]*\n/gm, '')
    .replace(/^\/\*\*[\s\S]*?\*\/\n/gm, '')
    .replace(/^\n+/, '')
    .replace(/^export /gm, exported ? 'export ' : '')
    .trimEnd();
  // tsc indents its JavaScript by four; generated code is indented by two.
  const code = language === 'ts' ? stripped : stripped.replace(/^(?: {4})+/gm, (indent) => '  '.repeat(indent.length / 4));
  texts.set(key, code);
  return code;
}

/**
 * What the helpers a build copies are made of: a hash of every support file, source and compiled,
 * of the installed runtime. A build cache keyed on it is not trusted across a runtime whose helpers
 * changed, even where the compiler's own version did not.
 */
export function supportFingerprint(): string {
  const hash = createHash('sha256');
  for (const folder of [supportFolder, compiledFolder]) {
    let files: string[];
    try {
      files = readdirSync(folder).sort();
    } catch {
      files = [];
    }
    for (const file of files) hash.update(`${file}\0${readSupport(folder, file) ?? ''}\0`);
  }
  const digest = hash.digest('hex').slice(0, 16);
  // A long-lived process (--watch) reads the helpers again once they changed under it.
  if (digest !== lastFingerprint) texts.clear();
  lastFingerprint = digest;
  return digest;
}

let lastFingerprint: string | undefined;

function readSupport(folder: URL, file: string): string | undefined {
  try {
    return readFileSync(new URL(file, folder), 'utf8');
  } catch {
    return undefined;
  }
}

/** What a helper declares (functions, types, constants): the names by which others use it. */
function declaredNames(name: HelperName, exact: boolean): string[] {
  return [...helperText(name, exact).matchAll(/^(?:function|type|const) (\w+)/gm)].map((m) => m[1]!);
}

/** The other helpers a helper's text uses, by the names they declare. */
export function helperUses(name: HelperName, exact: boolean): HelperName[] {
  const text = helperText(name, exact);
  return helperOrder.filter((other) => other !== name && declaredNames(other, exact).some((id) => new RegExp(`\\b${id}\\b`).test(text)));
}

/** Heads the helpers in a module: where each is documented and tested. */
export const supportNote = "// Support code, up to the validators: each function is a file of @json-tool-contracts/runtime's src/support/, documented and tested there.";

/** The sources of the named helpers and of the helpers they use, in a fixed order. */
export function helperCode(names: Iterable<HelperName>, exact: boolean, language: 'ts' | 'js' | 'dts' = 'ts', exported = false): string[] {
  const needed = new Set<HelperName>();
  const add = (name: HelperName): void => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const used of helperUses(name, exact)) add(used);
  };
  for (const name of names) add(name);
  return helperOrder.filter((name) => needed.has(name)).map((name) => helperText(name, exact, language, exported));
}
