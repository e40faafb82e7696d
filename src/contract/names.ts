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
