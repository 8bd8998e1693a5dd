import { expect, it } from 'vitest';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * A README's numbered steps, each a one-item list over its code ("3. Full mode" then the call): the
 * label said only the question's words back ("Full mode."), and the call that answers was left out.
 */
const README = `# segmenter

## API

1. Default mode

\`\`\`js
const words = segmenter.cut(text);
\`\`\`

2. Full mode

\`\`\`js
const words = segmenter.cutAll(text);
\`\`\`

3. Search engine mode

\`\`\`js
const words = segmenter.cutForSearch(text);
\`\`\`
`;

describeAnswersOver(
  'a step labelled by a one-item list',
  async () => [{ id: 'segmenter', title: 'segmenter', text: README }],
  (ask) => {
    it('is answered by the code under the label, not by the label', async () => {
      const a = await ask('How do I use full mode?');
      expect(a).toContain('segmenter.cutAll(text)');
      expect(a).not.toContain('cutForSearch');
    });
  },
);
