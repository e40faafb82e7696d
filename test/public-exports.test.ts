import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What each entry point of both packages exports, values and types, held to the committed list
 * `test/public-exports.json`: moving or splitting modules must leave every name a user imports where it
 * was. The names are what the TypeScript checker reads from the sources; a name is a value when the
 * built module has it at run time. A deliberate change to the public API updates the list in the same
 * commit (`npx vitest run test/public-exports.test.ts -u`).
 */

const root = resolve('.');
const sourceCondition = '@json-tool-contracts/source';

interface EntryPoint {
  /** As a user imports it: `@json-tool-contracts/runtime/mcp`. */
  readonly specifier: string;
  readonly source: string;
  readonly built: string;
}

type ExportMap = Record<string, string | Record<string, string>>;

/** The module entry points of a package.json `exports` map (JSON files and package.json itself are not modules). */
function entryPoints(packageDir: string): EntryPoint[] {
  const manifest = JSON.parse(readFileSync(join(root, packageDir, 'package.json'), 'utf8')) as { name: string; exports: ExportMap };
  return Object.entries(manifest.exports)
    .filter((entry): entry is [string, Record<string, string>] => typeof entry[1] === 'object')
    .map(([subpath, targets]) => {
      const built = targets['default']!;
      // The compiler has no source condition: its build mirrors src/ (tsconfig.build.json's rootDir).
      const source = targets[sourceCondition] ?? built.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
      return { specifier: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`, source: join(root, packageDir, source), built: join(root, packageDir, built) };
    });
}

const entries = [...entryPoints('.'), ...entryPoints('packages/runtime')];

/** Each entry point's declared exports (values and types), sorted, as the TypeScript checker reads the sources. */
function declaredNames(): Record<string, string[]> {
  const program = ts.createProgram(
    entries.map((entry) => entry.source),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noEmit: true, types: ['node'], customConditions: [sourceCondition] },
  );
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    entries.map((entry) => {
      const file = program.getSourceFile(entry.source);
      if (file === undefined) throw new Error(`${entry.specifier}: ${entry.source} is not in the program`);
      return [
        entry.specifier,
        checker
          .getExportsOfModule(checker.getSymbolAtLocation(file)!)
          .map((symbol) => symbol.name)
          .sort(),
      ];
    }),
  );
}

/** The names the built module has at run time (npm test builds first). */
async function builtNames(entry: EntryPoint): Promise<string[]> {
  if (!existsSync(entry.built)) throw new Error(`${entry.built} is missing: run npm run build first`);
  return Object.keys((await import(pathToFileURL(entry.built).href)) as Record<string, unknown>).sort();
}

describe('the public exports', () => {
  const declared = declaredNames();

  it('are the committed list, entry point by entry point: the values the build exports, and the types', async () => {
    const list: Record<string, string[]> = {};
    for (const entry of entries) {
      const values = new Set(await builtNames(entry));
      // A name without a value at run time is a type (an interface, or anything re-exported with `export type`).
      list[entry.specifier] = declared[entry.specifier]!.map((name) => (values.has(name) ? name : `type ${name}`));
    }
    await expect(`${JSON.stringify(list, null, 2)}\n`).toMatchFileSnapshot('./public-exports.json');
  });

  it('of the build are all declared by the sources', async () => {
    for (const entry of entries) {
      const undeclared = (await builtNames(entry)).filter((name) => !declared[entry.specifier]!.includes(name));
      expect({ entry: entry.specifier, undeclared }).toEqual({ entry: entry.specifier, undeclared: [] });
    }
  });
});
