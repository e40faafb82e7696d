import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRuntime } from './handlers.js';

test('text.count_words counts the words, through the runtime', () => {
  const result = createRuntime().call('text.count_words', { text: 'the quick  brown fox' });
  assert.deepEqual(result.ok ? result.output : result.error.message, { words: 4 });
});

test('the runtime refuses input that breaks the contract', () => {
  const result = createRuntime().call('text.count_words', { text: 42 });
  assert.equal(result.ok ? 'accepted' : result.error.code, 'invalid_input');
});
