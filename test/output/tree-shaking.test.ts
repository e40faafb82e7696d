import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { compileContracts } from '../../src/compiler.js';
import { discoverContracts } from '../../src/contract/discover.js';

/**
 * A bundler keeps only what an import reaches: one contract taken through the generated index
 * costs what importing its module directly does, so an index over many contracts is free to use.
 */
describe('the generated index tree-shakes', () => {
  const sources = discoverContracts(['fixtures/corpus']).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const minifiedSize = (entry: string): number => {
    const result = buildSync({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', write: false, logLevel: 'silent' });
    return result.outputFiles[0]!.contents.byteLength;
  };

  it.each(['ts', 'js'] as const)(
    'for --emit %s: one contract through the index within a tenth of its module alone, far below all of them or the record of them',
    (emit) => {
      const dir = mkdtempSync(join(tmpdir(), `jtc-shake-${emit}-`));
      for (const file of compileContracts(sources, { emit }).files) writeFileSync(join(dir, file.path), file.text);
      const extension = emit === 'ts' ? 'ts' : 'mjs';
      const indexSpecifier = emit === 'ts' ? './index.js' : './index.mjs';
      const moduleSpecifier = emit === 'ts' ? './git.log.js' : './git.log.mjs';
      writeFileSync(join(dir, `through-index.${extension}`), `import { gitLog } from '${indexSpecifier}';\nconsole.log(gitLog.input.is({}));\n`);
      writeFileSync(join(dir, `direct.${extension}`), `import { contract } from '${moduleSpecifier}';\nconsole.log(contract.input.is({}));\n`);
      writeFileSync(join(dir, `everything.${extension}`), `import * as all from '${indexSpecifier}';\nconsole.log(Object.values(all).map((c) => c.input?.is({})));\n`);
      writeFileSync(join(dir, `the-set.${extension}`), `import { contracts } from '${indexSpecifier}';\nconsole.log(Object.values(contracts).map((c) => c.input.is({})));\n`);
      const throughIndex = minifiedSize(join(dir, `through-index.${extension}`));
      const direct = minifiedSize(join(dir, `direct.${extension}`));
      expect(throughIndex / direct).toBeLessThan(1.1);
      const everything = minifiedSize(join(dir, `everything.${extension}`));
      expect(everything).toBeGreaterThan(5 * direct);
      // The record of every contract is what reaches them all, and only when it is imported.
      expect(minifiedSize(join(dir, `the-set.${extension}`)) / everything).toBeGreaterThan(0.9);
    },
    600_000,
  );
});
