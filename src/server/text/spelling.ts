/**
 * One spelling for words spelled differently on either side of the Atlantic, so a question and a
 * document meet: "licence" and "License", "colour" and "color", "initialise" and "initialize".
 * Applied to a word before it is stemmed (terms.ts); the stemmer cannot join them. Verbs in -ize
 * take the -ise form: Porter's stemmer cuts "normalize" to "normal" and "customize" to "custom",
 * words of their own, but leaves "normalis" and "customis" apart.
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
    analyze: 'analyse',
    analyzed: 'analysed',
    analyzes: 'analyses',
    analyzing: 'analysing',
    centre: 'center',
    centres: 'centers',
    centred: 'centered',
  }),
);

/** -our words (colour, behaviour): their American stems. "four", "hour", "your" are none. */
const OUR = /^(colo|behavio|favo|hono|labo|neighbo|flavo|humo|rumo|armo|harbo|vapo|rigo|savo)ur/;

/** An -ize verb and its forms; the few -ize words of other kinds ("citizen") do not end so. */
const IZE = /^([a-z]{3,})iz(e|ed|es|ing|ation|ations|er|ers)$/;

export function oneSpelling(word: string): string {
  const w = word.toLowerCase();
  const known = WORDS.get(w);
  if (known) return known;
  if (OUR.test(w)) return w.replace(/our/, 'or');
  const ize = IZE.exec(w);
  return ize ? `${ize[1]}is${ize[2]}` : w;
}

/**
 * A word as either side spells it, for a search index that stems endings only: "initialise" is
 * searched as "initialize" too, "licence" as "license".
 */
export function spellings(word: string): string[] {
  const w = word.toLowerCase();
  const one = oneSpelling(w);
  const american = one.replace(/^([a-z]{3,})is(e|ed|es|ing|ation|ations|er|ers)$/, '$1iz$2');
  return [...new Set([one, american])].filter((v) => v !== w);
}
