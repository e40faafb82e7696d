import type { NamedContract } from '../contract/check-contracts.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ContractIR } from '../ir/contract-ir.js';
import type { HelperName } from '../codegen/helpers.js';
import { emitIndexModule } from '../emit/index-module.js';
import { emitModule, maxIssues } from '../emit/module.js';
import { supportModuleName } from '../contract/names.js';
import { emitSupportModule, type SupportKind } from '../emit/support-module.js';

export type EmitKind = 'ts' | 'js';
export type { SupportKind } from '../emit/support-module.js';

/** How a build's files are laid out: the kind of files, where the support code goes, the number mode (which the support module's code follows). */
export interface Layout {
  readonly emit: EmitKind;
  readonly support: SupportKind;
  readonly exactNumbers: boolean;
}

export interface GeneratedFile {
  /** Relative to the output folder, `/`-separated. */
  readonly path: string;
  readonly text: string;
}

/** One contract compiled on its own: its diagnostics and, without an error, its name and module files. */
export interface CompiledSource {
  readonly diagnostics: readonly Diagnostic[];
  readonly contract?: NamedContract;
  readonly files: readonly GeneratedFile[];
  /** With `--support shared`: the helpers its module imports, which the build's support module carries. */
  readonly supportHelpers?: readonly HelperName[];
}

/**
 * The complete output of a build, sorted by path. It depends only on the contracts (sorted by
 * name before this point), so it is the same on every machine, in every order, at any time.
 */
export function generateFiles(contracts: readonly ContractIR[], emit: EmitKind, support: SupportKind = 'inline'): GeneratedFile[] {
  const modules = contracts.map((contract) => moduleFiles(contract, emit, support));
  return fileSet(
    modules.flatMap((module) => module.files),
    contracts.map((c) => c.name),
    { emit, support, exactNumbers: contracts.some((c) => c.exactNumbers) },
    modules.flatMap((module) => module.supportHelpers ?? []),
  );
}

/** One contract's module: it depends on that contract alone, so modules can be generated apart. */
export function moduleFiles(contract: ContractIR, emit: EmitKind, support: SupportKind = 'inline'): Pick<CompiledSource, 'files' | 'supportHelpers'> {
  const [module, declarations] = modulePaths(contract.name, emit);
  const emitted = emit === 'ts' ? emitModule(contract, 'ts', support) : emitModule(contract, 'js', support);
  const files =
    'ts' in emitted
      ? [{ path: module!, text: emitted.ts }]
      : [
          { path: module!, text: emitted.js },
          { path: declarations!, text: emitted.declarations },
        ];
  return support === 'shared' ? { files, supportHelpers: emitted.helpers } : { files };
}

/** The files a tool's module is written to: `math.add.ts`, or `math.add.mjs` and `math.add.d.mts`. */
export function modulePaths(toolName: string, emit: EmitKind): string[] {
  return emit === 'ts' ? [`${toolName}.ts`] : [`${toolName}.mjs`, `${toolName}.d.mts`];
}

/**
 * The modules (generated together or apart) with the index of their tools and, with shared
 * support, the support module carrying `supportHelpers` (what the modules use), sorted by path.
 * No module, no support module: nothing would import it.
 */
export function fileSet(modules: readonly GeneratedFile[], toolNames: readonly string[], layout: Layout, supportHelpers: readonly HelperName[] = []): GeneratedFile[] {
  const { emit } = layout;
  const index = emitIndexModule(toolNames, emit);
  const indexFiles =
    emit === 'ts'
      ? [{ path: 'index.ts', text: index.ts }]
      : [
          { path: 'index.mjs', text: index.js },
          { path: 'index.d.mts', text: index.declarations },
        ];
  return [...modules, ...indexFiles, ...(layout.support === 'shared' && toolNames.length > 0 ? supportFiles(new Set(supportHelpers), layout) : [])].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function supportFiles(helpers: ReadonlySet<HelperName>, layout: Layout): GeneratedFile[] {
  const text = (language: 'ts' | 'js' | 'dts'): string => emitSupportModule(helpers, layout.exactNumbers, language, String(maxIssues));
  if (layout.emit === 'ts') return [{ path: `${supportModuleName}.ts`, text: text('ts') }];
  return [
    { path: `${supportModuleName}.mjs`, text: text('js') },
    { path: `${supportModuleName}.d.mts`, text: text('dts') },
  ];
}
