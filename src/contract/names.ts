/** Tool names: dot-separated segments of [A-Za-z0-9_-], each starting with a letter or `_`. */
const toolNamePattern = /^[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
export const maxToolNameLength = 128;

export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > maxToolNameLength) return `has ${name.length} characters; the limit is ${maxToolNameLength}`;
  if (!toolNamePattern.test(name)) return 'must be dot-separated segments of letters, digits, "_" and "-", each starting with a letter or "_"';
  return undefined;
}

function words(name: string): string[] {
  return name.split(/[._-]+/).filter((word) => word !== '');
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** `github.create_pull_request` → `GithubCreatePullRequest`, the stem of its generated type names. */
export function typeStem(toolName: string): string {
  return words(toolName).map(capitalize).join('');
}

/** `github.create_pull_request` → `githubCreatePullRequest`, its export name in the index. */
export function exportName(toolName: string): string {
  const stem = typeStem(toolName);
  return stem.charAt(0).toLowerCase() + stem.slice(1);
}

/** Words an index export cannot be imported under (`import { class } …` does not parse); `default` would be the default export. */
const reservedWords: ReadonlySet<string> = new Set(
  'arguments await break case catch class const continue debugger default delete do else enum eval export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield'.split(
    ' ',
  ),
);

/** What the index exports the set of every contract as; no contract may take the name. */
export const indexRecordName = 'contracts';

/** The shared support module's name (`jtc-support.ts`, or `.mjs` and `.d.mts`: `jtc build --support shared`); no contract may take it. */
export const supportModuleName = 'jtc-support';

/** Device names Windows reserves whatever the extension: `con.get.ts` cannot be created there. */
const windowsDeviceNames = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * Why a syntactically valid tool name cannot give a module file, type names and an index export
 * that work everywhere; undefined when it can.
 */
export function generatedNameProblem(name: string): string | undefined {
  const stem = typeStem(name);
  if (stem === '') return 'has no letter or digit to build its type names from';
  if (/^[0-9]/.test(stem)) return `would give type names that start with a digit (${stem}Input)`;
  if (name.toLowerCase() === 'index') return 'would be written to the index file itself (index.ts)';
  if (name.toLowerCase() === supportModuleName) return `would be written to the support module's file (${supportModuleName}.ts, which jtc build --support shared writes)`;
  if (windowsDeviceNames.test(name.split('.')[0]!)) return `would give the file ${name}.ts, which Windows reserves as a device name`;
  if (exportName(name) === indexRecordName) return `would be exported from the index as "${indexRecordName}", the name of the index's record of every contract`;
  // TypeScript reads any `.ts` file whose name holds `.d.` as declarations (`x.d.css.ts` declares `x.css`).
  if (name.split('.').slice(1).includes('d')) return `would give the file ${name}.ts, which TypeScript reads as a declaration file (a "d" segment after the first)`;
  if (reservedWords.has(exportName(name))) return `would be exported from the index as "${exportName(name)}", a reserved word that cannot be imported`;
  return undefined;
}

/**
 * A name for a tool whose name collides with others (JTC124, JTC125): the first of `name_2`,
 * `name_3`, … that is valid and collides with none of `others` by name, type names or module file.
 */
export function freeToolName(name: string, others: readonly string[]): string | undefined {
  const taken = new Set(others.flatMap((other) => [other, typeStem(other), other.toLowerCase()]));
  // Each other name blocks at most three candidates (by name, type names and file), so one of these is free.
  for (let n = 2; n <= 3 * others.length + 2; n++) {
    const candidate = `${name}_${n}`;
    if (toolNameProblem(candidate) !== undefined || generatedNameProblem(candidate) !== undefined) return undefined;
    if (!taken.has(candidate) && !taken.has(typeStem(candidate)) && !taken.has(candidate.toLowerCase())) return candidate;
  }
  return undefined;
}
