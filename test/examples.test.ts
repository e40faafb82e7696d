import { describe, expect, it } from 'vitest';
import { runExample } from '../examples/tools.js';

describe('examples/tools.ts', () => {
  it('runs as the README shows', async () => {
    expect(await runExample()).toEqual({
      sum: { total: 5 },
      denied: 'invalid_input: input for "math.add" does not match its contract: /right: must be an integer, got string',
      searchHits: [{ id: 'n1', score: 0.9, snippet: 'eggs, milk' }],
    });
  });
});
