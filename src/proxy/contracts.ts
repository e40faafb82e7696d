import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContractSet } from '@json-tool-contracts/runtime';
import { compileContracts } from '../compiler.js';
import type { SourceText } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { formatDiagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';

/** A contracts folder compiled for the gateway: the validators, and the sources the drift check compares. */
export interface GatewayContracts {
  readonly contracts: ContractSet;
  readonly sources: readonly SourceText[];
}

/**
 * Compiles every `*.contract.json` of `dir` (the output of `jtc import`, tightened by hand or not)
 * as `jtc build --emit js` would, into a private folder that is removed once the modules are
 * loaded: the gateway enforces what the folder says now, never an old build of it.
 */
export async function loadGatewayContracts(dir: string): Promise<GatewayContracts> {
  if (!withIoErrors(dir, () => statSync(dir)).isDirectory()) throw new UsageError(`proxy: ${dir} is not a folder; name the folder of the contracts (jtc import -o <dir>)`);
  const sources = readContractSources(discoverContracts([dir])).map((source) => ({ file: source.file, text: source.bytes }));
  if (sources.length === 0) throw new UsageError(`proxy: no *.contract.json in ${dir}; write them with jtc import -o ${dir}`);
  const built = compileContracts(sources, { emit: 'js' });
  if (hasErrors(built.diagnostics)) throw new UsageError(`proxy: the contracts of ${dir} have errors; fix them (jtc check ${dir}):`, built.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic));
  const folder = mkdtempSync(join(tmpdir(), 'jtc-proxy-'));
  try {
    for (const file of built.files) writeFileSync(join(folder, file.path), file.text);
    const module = (await import(pathToFileURL(join(folder, 'index.mjs')).href)) as { contracts: ContractSet };
    return { contracts: module.contracts, sources };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
