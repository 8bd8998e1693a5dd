import { describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../src/server/engines/grounded-writer.js';

const fox = [{ ref: 1, title: 'Fox', link: '', content: 'The red fox hunts at dawn and dusk. It lives in dens.' }];

describe('the extractive grounded writer', () => {
  it('keeps short sentences and matches word forms (live / lives) like the index does', () => {
    expect(extractiveAnswer({ query: 'Where does the fox live?', passages: fox, history: [] })).toContain('It lives in dens. [1]');
  });

  it('is deterministic', () => {
    const a = extractiveAnswer({ query: 'When does the fox hunt?', passages: fox, history: [] });
    expect(extractiveAnswer({ query: 'When does the fox hunt?', passages: fox, history: [] })).toBe(a);
    expect(a).toContain('The red fox hunts at dawn and dusk. [1]');
  });
});
