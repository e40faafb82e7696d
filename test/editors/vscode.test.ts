import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { compilerBin } = require('../../editors/vscode/server-path.js') as { compilerBin: (folders: string[], configured?: string) => string | undefined };

describe('the VS Code extension', () => {
  it("starts the workspace's installed compiler, or the configured one, and nothing when there is none", () => {
    const [bare, installed] = [mkdtempSync(join(tmpdir(), 'jtc-vscode-')), mkdtempSync(join(tmpdir(), 'jtc-vscode-'))];
    const bin = join(installed, 'node_modules/json-tool-contracts/bin/jtc.js');
    mkdirSync(join(installed, 'node_modules/json-tool-contracts/bin'), { recursive: true });
    writeFileSync(bin, '');
    expect(compilerBin([bare, installed])).toBe(bin);
    expect(compilerBin([bare])).toBeUndefined();
    expect(compilerBin([bare], join(installed, 'node_modules/json-tool-contracts/bin/jtc.js'))).toBe(bin);
    expect(compilerBin([installed], 'node_modules/json-tool-contracts/bin/jtc.js')).toBe(bin);
    expect(compilerBin([bare], 'node_modules/json-tool-contracts/bin/jtc.js')).toBeUndefined();
  });

  it('declares its entry, its one dependency and the files it serves', () => {
    const manifest = JSON.parse(readFileSync('editors/vscode/package.json', 'utf8'));
    expect(manifest.main).toBe('./extension.js');
    expect(Object.keys(manifest.dependencies)).toEqual(['vscode-languageclient']);
    const extension = readFileSync('editors/vscode/extension.js', 'utf8');
    expect(extension).toContain("pattern: '**/*.contract.json'");
    expect(extension).toContain("pattern: '**/jtc.config.json'");
  });
});
