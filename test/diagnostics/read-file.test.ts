import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readRegularFile } from '../../src/diagnostics/read-file.js';
import { UsageError } from '../../src/diagnostics/usage-error.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jtc-read-'));
});

const ours = { limit: 16, role: 'the build lock', followLinks: false };
const followed = { ...ours, role: 'a contract file', followLinks: true };

describe('readRegularFile', () => {
  it('reads a regular file up to the limit, and nothing for a missing one', () => {
    writeFileSync(join(dir, 'small'), 'abc');
    writeFileSync(join(dir, 'large'), 'x'.repeat(100_000));
    expect(readRegularFile(join(dir, 'small'), ours)?.toString()).toBe('abc');
    expect(readRegularFile(join(dir, 'large'), ours)?.toString()).toBe('x'.repeat(16));
    expect(readRegularFile(join(dir, 'large'), { ...ours, limit: 100_001 })?.length).toBe(100_000);
    expect(readRegularFile(join(dir, 'missing'), ours)).toBeUndefined();
  });

  it('refuses a symlink at our own paths, and reads through one to a regular file where links are followed', () => {
    writeFileSync(join(dir, 'target'), 'abc');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    expect(() => readRegularFile(join(dir, 'link'), ours)).toThrow(new UsageError(`${join(dir, 'link')}: is a symlink where the build lock belongs; move or remove it`));
    expect(readRegularFile(join(dir, 'link'), followed)?.toString()).toBe('abc');
  });

  it('refuses a device, even through a link, without reading it', () => {
    symlinkSync('/dev/zero', join(dir, 'zero'));
    expect(() => readRegularFile('/dev/zero', followed)).toThrow(new UsageError('/dev/zero: is a device where a contract file belongs; move or remove it'));
    expect(() => readRegularFile(join(dir, 'zero'), { ...followed, limit: 2 ** 31 })).toThrow(/is a device where a contract file belongs/);
  });

  it('refuses a FIFO without waiting for a writer, and a folder', () => {
    mkdirSync(join(dir, 'folder'));
    expect(() => readRegularFile(join(dir, 'folder'), ours)).toThrow(new UsageError(`${join(dir, 'folder')}: is a folder where the build lock belongs; move or remove it`));
    if (spawnSync('mkfifo', [join(dir, 'fifo')]).status !== 0) return;
    expect(() => readRegularFile(join(dir, 'fifo'), followed)).toThrow(new UsageError(`${join(dir, 'fifo')}: is a FIFO where a contract file belongs; move or remove it`));
  });
});
