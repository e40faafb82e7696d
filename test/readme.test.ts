import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnosticCodes } from '../src/diagnostics/codes.js';

const readme = readFileSync('README.md', 'utf8');

describe('README', () => {
  it.each(Object.keys(diagnosticCodes))('documents %s', (code) => {
    expect(readme).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });

  it('keeps the two newcomer commands', () => {
    expect(readme).toContain('npm ci && npx jtc build fixtures/valid fixtures/corpus -o generated');
    expect(readme).toContain('npm test');
  });
});
