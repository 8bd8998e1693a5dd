/**
 * British spellings as American ones, so a question and a document spelled on either side of the
 * Atlantic meet: "licence" and "License", "initialise" and "initialize", "colour" and "color".
 * Applied to a word before it is stemmed (terms.ts); the stemmer cannot join them.
 */
const WORDS = new Map(
  Object.entries({
    licence: 'license',
    licences: 'licenses',
    licenced: 'licensed',
    defence: 'defense',
    offence: 'offense',
    grey: 'gray',
    catalogue: 'catalog',
    catalogues: 'catalogs',
    dialogue: 'dialog',
    dialogues: 'dialogs',
    analyse: 'analyze',
    analysed: 'analyzed',
    analyses: 'analyzes',
    analysing: 'analyzing',
    centre: 'center',
    centres: 'centers',
    centred: 'centered',
  }),
);

/** -our words (colour, behaviour): their American stems. "four", "hour", "your" are none. */
const OUR = /^(colo|behavio|favo|hono|labo|neighbo|flavo|humo|rumo|armo|harbo|vapo|rigo|savo)ur/;

/** -ise words that are no -ize words in American English either. */
const ISE_WORDS = new Set(
  'advise advertise apprise arise chastise circumcise comprise compromise concise demise despise devise disguise enterprise excise exercise expertise franchise improvise incise likewise clockwise merchandise otherwise paradise porpoise precise premise promise reprise revise supervise surmise surprise televise tortoise treatise valise'.split(
    ' ',
  ),
);
const ISE = /^([a-z]{3,})is(e|ed|es|ing|ation|ations|er|ers)$/;

export function americanSpelling(word: string): string {
  const w = word.toLowerCase();
  const known = WORDS.get(w);
  if (known) return known;
  if (OUR.test(w)) return w.replace(/our/, 'or');
  const ise = ISE.exec(w);
  if (ise && !ISE_WORDS.has(`${ise[1]}ise`)) return `${ise[1]}iz${ise[2]}`;
  return w;
}
