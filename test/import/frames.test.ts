import { describe, expect, it } from 'vitest';
import { Frames } from '../../src/import/frames.js';

describe('Frames', () => {
  const text = 'first\n\nsecond event\nwith two lines\n\n\n\nthird\n\nunfinished';

  it.each([1, 2, 3, 5, 8, 64])('gives the same parts whatever the chunks (%i characters each), separators across chunks included', (size) => {
    const frames = new Frames('\n\n', 1000, () => new Error('too long'));
    const parts: string[] = [];
    for (let at = 0; at < text.length; at += size) parts.push(...frames.push(text.slice(at, at + size)));
    expect(parts).toEqual(['first', 'second event\nwith two lines', '', 'third']);
  });

  it('fails once the part not yet ended is longer than its bound', () => {
    const frames = new Frames('\n', 10, () => new Error('too long'));
    expect(frames.push('0123456789\n')).toEqual(['0123456789']);
    expect(() => {
      frames.push('01234');
      frames.push('567890');
    }).toThrow('too long');
  });
});
