import { closeSync, mkdtempSync, openSync, ftruncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContractSources } from '../../src/contract/discover.js';
import { checkContract } from '../../src/contract/check-contract.js';
import { maxSourceBytes } from '../../src/source/parse.js';

describe('readContractSources', () => {
  it('reads a file over the size limit only one byte past it, and the parser refuses it (JTC107)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'jtc-big-')), 'huge.contract.json');
    // 1.5 GB, sparse: it costs no disk, and reading it whole would cost 1.5 GB of memory.
    const fd = openSync(file, 'w');
    writeSync(fd, '{"name": "huge", ');
    ftruncateSync(fd, 1.5 * 2 ** 30);
    closeSync(fd);
    const [source] = readContractSources([file]);
    expect(source!.bytes.length).toBe(maxSourceBytes + 1);
    expect(checkContract(source!.bytes, file).diagnostics).toMatchObject([{ code: 'JTC107', line: 1, column: 1, message: `file is larger than the ${maxSourceBytes} bytes a contract file may have` }]);
  });
});
