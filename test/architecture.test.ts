import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of the compiler (`src/`) and the runtime (`packages/runtime/src/`), read with the
 * TypeScript parser: every `import` and `export … from`, type-only ones included, `import('…')` types
 * and dynamic imports. It holds two rules: no module reaches itself through its imports (a circle
 * makes load order matter and the modules one), and the runtime's core (`core/`, what
 * `import { CapabilityRuntime }` loads) imports nothing but itself and `support/` (nothing of `mcp/`,
 * `providers/`, `otel/` or `redis/`), so a server that only calls tools never loads a host adapter,
 * OpenTelemetry or the Redis store. And each entry point of the runtime lives in the folder it is named for.
 */

const root = resolve('.');
const trees = ['src', 'packages/runtime/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a file names, whether it brings values or only types. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) found.push(node.argument.literal.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) found.push(node.moduleReference.expression.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier as the file it names (`./x.js` is `x.ts`); undefined for a package. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = join(dirname(from), specifier).replace(/\.js$/, '.ts');
  for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) if (existsSync(join(root, candidate))) return candidate;
  throw new Error(`${from} imports ${specifier}, which names no source file`);
}

const files = trees.flatMap(sourceFiles);
const imports = new Map(files.map((file) => [file, specifiers(file)]));
const graph = new Map(files.map((file) => [file, [...new Set(imports.get(file)!.flatMap((specifier) => resolveRelative(file, specifier) ?? []))]]));

/** The graph's strongly connected components of more than one module, or of one that imports itself (Tarjan's algorithm). */
function circles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)!) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

describe('the import graph', () => {
  it('is read from every source file of both packages', () => {
    // A parser that missed imports would find no circle anywhere: this one sees the edges it must.
    expect(graph.get('packages/runtime/src/index.ts')).toContain('packages/runtime/src/core/capability-runtime.ts');
    expect(imports.get('packages/runtime/src/core/capability-runtime.ts')!.length).toBeGreaterThan(3);
    expect(files.length).toBeGreaterThan(100);
  });

  it('has no circles, type-only imports included', () => {
    expect(circles()).toEqual([]);
  });

  it("keeps the runtime's core to itself and support/: nothing of mcp/, providers/, otel/, redis/, no package import", () => {
    const core = 'packages/runtime/src/core/';
    const allowed = [core, 'packages/runtime/src/support/'];
    const outside = files
      .filter((file) => file.startsWith(core))
      .flatMap((file) =>
        imports.get(file)!.flatMap((specifier) => {
          const target = resolveRelative(file, specifier);
          return target !== undefined && allowed.some((folder) => target.startsWith(folder)) ? [] : [`${relative(core, file)} imports ${specifier}`];
        }),
      );
    expect(outside).toEqual([]);
  });

  it("serves each of the runtime's entry points from the folder it is named for", () => {
    // The exports map reads like the tree: "./mcp/http" lives in src/mcp/http/, the provider entries in src/providers/.
    const exportsMap = (JSON.parse(readFileSync(join(root, 'packages/runtime/package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> }).exports;
    const providerEntries = new Set(['./ai', './providers', './openai-agents']);
    const misplaced = Object.entries(exportsMap).flatMap(([entry, conditions]) => {
      if (typeof conditions === 'string' || entry === '.' || entry === './internal') return [];
      const folder = providerEntries.has(entry) ? 'providers' : entry.slice(2);
      const source = conditions['@json-tool-contracts/source']!;
      const inFolder = dirname(source) === `./src/${folder}` && conditions.types === source.replace('./src/', './dist/').replace(/\.ts$/, '.d.ts') && conditions.default === source.replace('./src/', './dist/').replace(/\.ts$/, '.js');
      return inFolder && existsSync(join(root, 'packages/runtime', source)) ? [] : [`${entry}: ${JSON.stringify(conditions)}`];
    });
    expect(misplaced).toEqual([]);
  });
});
