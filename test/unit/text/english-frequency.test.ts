import { expect, it } from 'vitest';
import { isRareInEnglish } from '../../../src/server/text/english-frequency.js';

it('technical terms are rare in everyday English; common words and short acronyms are not', () => {
  for (const w of ['lookbehind', 'comma', 'insensitive', 'Encrypt']) expect(isRareInEnglish(w)).toBe(true);
  for (const w of ['stop', 'middle', 'kind', 'hold', 'Look']) expect(isRareInEnglish(w)).toBe(false);
  // An inflection is as common as its word: subtitles say "versions" rarely, "version" often.
  for (const w of ['versions', 'supported']) expect(isRareInEnglish(w)).toBe(false);
  // Three letters or fewer: an acronym's count in speech says nothing.
  for (const w of ['CI', 'TLS', 'gpu']) expect(isRareInEnglish(w)).toBe(false);
});
