import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { discoverContracts } from '../../src/contract/discover.js';
import { compileContract, realIssueMessages } from '../support/load-module.js';

type Side = Record<'valid' | 'invalid', unknown[]>;

describe.each(discoverContracts(['fixtures/corpus']).map((file) => [file] as const))('%s', (file) => {
  const contract = compileContract(readFileSync(file, 'utf8'), file);
  const samples = JSON.parse(readFileSync(file.replace('.contract.json', '.samples.json'), 'utf8')) as Record<'input' | 'output', Side>;

  it.each(['input', 'output'] as const)('validates every labelled %s sample as labelled', (side) => {
    for (const label of ['valid', 'invalid'] as const) {
      samples[side][label].forEach((sample, index) => {
        const expected = label === 'valid';
        expect({ index, label, is: contract[side].is(sample) }).toEqual({ index, label, is: expected });
        const result = contract[side].validate(sample);
        expect(result.ok).toBe(expected);
        if (!result.ok) expect(realIssueMessages(result).length).toBeGreaterThan(0);
      });
    }
  });
});
