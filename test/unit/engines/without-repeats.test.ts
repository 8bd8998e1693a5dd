import { expect, it } from 'vitest';
import { withoutRepeats } from '../../../src/server/engines/answer/render.js';

const block = (code: string) => `\`\`\`\n${code}\n\`\`\`\n\n[1]`;

// js-cookie's "Delete cookie:" example (`Cookies.remove('name')`) was dropped because the next
// example, which removes a cookie with its path, holds the same call.
it('keeps a code block that another code block holds: each is its own example', () => {
  const first = block("Cookies.remove('name')");
  const second = block("Cookies.set('name', 'value', { path: '' })\nCookies.remove('name') // fail!");
  expect(withoutRepeats(['Delete cookie: [1]', first, second])).toEqual(['Delete cookie: [1]', first, second]);
});

it('still says a sentence once when a longer line or a block says it again', () => {
  const sentence = 'The default option flags are `-V` and `--version`. [1]';
  const longer =
    'The optional `.version()` method adds handling. The default option flags are `-V` and `--version`. [1]';
  expect(withoutRepeats([sentence, longer])).toEqual([longer]);
  const same = block('npm install --save kleur');
  expect(withoutRepeats([same, same])).toEqual([same]);
});
