import { createRequire } from 'node:module';
import type * as TypeScript from 'typescript';
import type { ContractIR } from '../ir/contract-ir.js';
import { emitIndexModule } from '../emit/index-module.js';
import { emitModule } from '../emit/module.js';

export type EmitKind = 'ts' | 'js';

export interface GeneratedFile {
  /** Relative to the output folder, `/`-separated. */
  readonly path: string;
  readonly text: string;
}

/**
 * The complete output of a build, sorted by path. It depends only on the contracts (sorted by
 * name before this point), so it is the same on every machine, in every order, at any time.
 */
export function generateFiles(contracts: readonly ContractIR[], emit: EmitKind): GeneratedFile[] {
  return fileSet(
    contracts.flatMap((contract) => moduleFiles(contract, emit)),
    contracts.map((c) => c.name),
    emit,
  );
}

/** One contract's module: it depends on that contract alone, so modules can be generated apart. */
export function moduleFiles(contract: ContractIR, emit: EmitKind): GeneratedFile[] {
  return asEmitted(contract.name, emitModule(contract), emit);
}

/** The modules (generated together or apart) with the index of their tools, sorted by path. */
export function fileSet(modules: readonly GeneratedFile[], toolNames: readonly string[], emit: EmitKind): GeneratedFile[] {
  return [...modules, ...asEmitted('index', emitIndexModule(toolNames), emit)].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function asEmitted(base: string, source: string, emit: EmitKind): GeneratedFile[] {
  if (emit === 'ts') return [{ path: `${base}.ts`, text: source }];
  return [
    { path: `${base}.js`, text: toJavaScript(source) },
    { path: `${base}.d.ts`, text: toDeclaration(source) },
  ];
}

/**
 * Only `--emit js` needs the TypeScript compiler (to strip types and write declarations), so it is
 * an optional peer dependency, loaded on the first such build: a project that runs the runtime, or
 * builds `.ts` modules, never installs it. Without it, `--emit js` says what to install.
 */
let typescript: typeof TypeScript | undefined;

/** `--emit js` without the TypeScript compiler installed. */
export class MissingTypeScriptError extends Error {
  override readonly name = 'MissingTypeScriptError';
}

/** Loads the compiler once; throws MissingTypeScriptError when it is not installed. */
export function loadTypeScript(): typeof TypeScript {
  if (typescript !== undefined) return typescript;
  try {
    typescript = createRequire(import.meta.url)('typescript') as typeof TypeScript;
  } catch {
    throw new MissingTypeScriptError('--emit js needs the TypeScript compiler, an optional peer dependency: install it with `npm install --save-dev typescript`, or build .ts modules (--emit ts, the default), which need nothing');
  }
  return typescript;
}

function compilerOptions(ts: typeof TypeScript): TypeScript.CompilerOptions {
  return { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, newLine: ts.NewLineKind.LineFeed, removeComments: false };
}

function toJavaScript(source: string): string {
  const ts = loadTypeScript();
  return ts.transpileModule(source, { compilerOptions: compilerOptions(ts), reportDiagnostics: false }).outputText;
}

/** Every export of a generated module carries an explicit type, so declarations need no type checker. */
function toDeclaration(source: string): string {
  const ts = loadTypeScript();
  const declarations = ts.transpileDeclaration(source, { compilerOptions: { ...compilerOptions(ts), declaration: true }, reportDiagnostics: false }).outputText;
  return `${leadingHeader(source)}\n${declarations}`;
}

/** Declaration emit drops the header comment; it is what marks a file as ours, so it is kept. */
function leadingHeader(source: string): string {
  const end = source.indexOf('\n\n');
  return end < 0 ? source : source.slice(0, end);
}
