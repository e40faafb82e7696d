import type { NamedContract } from '../contract/check-contracts.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ContractIR } from '../ir/contract-ir.js';
import { emitIndexModule } from '../emit/index-module.js';
import { emitModule } from '../emit/module.js';

export type EmitKind = 'ts' | 'js';

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
  const [module, declarations] = modulePaths(contract.name, emit);
  if (emit === 'ts') return [{ path: module!, text: emitModule(contract) }];
  const js = emitModule(contract, 'js');
  return [
    { path: module!, text: js.js },
    { path: declarations!, text: js.declarations },
  ];
}

/** The files a tool's module is written to: `math.add.ts`, or `math.add.mjs` and `math.add.d.mts`. */
export function modulePaths(toolName: string, emit: EmitKind): string[] {
  return emit === 'ts' ? [`${toolName}.ts`] : [`${toolName}.mjs`, `${toolName}.d.mts`];
}

/** The modules (generated together or apart) with the index of their tools, sorted by path. */
export function fileSet(modules: readonly GeneratedFile[], toolNames: readonly string[], emit: EmitKind): GeneratedFile[] {
  const index = emitIndexModule(toolNames, emit);
  const indexFiles =
    emit === 'ts'
      ? [{ path: 'index.ts', text: index.ts }]
      : [
          { path: 'index.mjs', text: index.js },
          { path: 'index.d.mts', text: index.declarations },
        ];
  return [...modules, ...indexFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
