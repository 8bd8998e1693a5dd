import verbs from 'english-verbs-irregular/dist/verbs.json' with { type: 'json' };

// English irregular verb forms and their infinitive ("wrote", "written" → "write"), from the
// english-verbs-irregular list: a stemmer cuts endings, so "Who wrote date?" never met "Written by".

/**
 * Forms that are more often a noun or an adjective in technical text than the verb: "a given
 * value", "Not Found", "64-bit", "upper bound", "left-aligned", "LED". They stay words of their own.
 */
const NOT_VERBS = new Set(
  'given found bit bound left led lit lay lain saw ground wound spoke fell rose bore dove shot sat felt won wore sank sped spun hung sewn sown mown hewn clad bade slew pled trod shat spat swam swum'.split(
    ' ',
  ),
);

const INFINITIVE = new Map<string, string>();
const FORMS = new Map<string, string[]>();
for (const [base, tenses] of Object.entries(verbs as Record<string, string[][]>)) {
  // The list also holds regular spellings ("format", "formatted"): the stemmer has those already.
  const regular = (f: string) => f.startsWith(base.replace(/e$/, '')) && f.endsWith('ed');
  const forms = [...new Set(tenses.flat())].filter(
    (f) => f !== base && !regular(f) && !NOT_VERBS.has(f) && /^[a-z]+$/.test(f),
  );
  for (const f of forms) if (!INFINITIVE.has(f)) INFINITIVE.set(f, base);
  if (forms.length) FORMS.set(base, forms);
}

/** The infinitive of an irregular past form ("wrote" → "write"); any other word as given. */
export function infinitiveOf(word: string): string {
  return INFINITIVE.get(word.toLowerCase()) ?? word;
}

/** An irregular verb's other forms, from any of its forms ("wrote" → write, written). */
export function verbForms(word: string): string[] {
  const base = infinitiveOf(word.toLowerCase());
  const forms = FORMS.get(base);
  return forms ? [base, ...forms].filter((f) => f !== word.toLowerCase()) : [];
}

/** Phrasal verbs (and phrases) a question is asked with, and the words documents write for them. */
const PHRASAL: Array<[RegExp, string]> = [
  // "When none is given", "if not set", "when omitted" ask for the default: documents say "default".
  // What is not given stays asked: "if no filename is given" asks of the filename.
  [
    /\b(?:when|if)\s+(?:none|nothing)\s+(?:is|are|was|were|gets?)\s+(?:given|set|specified|provided|passed|supplied|chosen)\b/gi,
    'by default',
  ],
  [
    /\b(?:when|if)\s+no\s+([\w-]+)\s+(?:is|are|was|were|gets?)\s+(?:given|set|specified|provided|passed|supplied|chosen)\b/gi,
    '$1 by default',
  ],
  [
    /\b(?:when|if)\s+(?:(?:it|they)\s+(?:is|are)\s+|it's\s+)?(?:not\s+|un)(?:set|specified|given|provided|passed|supplied)\b/gi,
    'by default',
  ],
  [/\b(?:when|if)\s+(?:(?:it|they)\s+(?:is|are)\s+|it's\s+)?(?:omitted|left\s+out)\b/gi, 'by default'],
  // "Who wrote X?" asks for X's author: a man page's AUTHORS, a README's "Author:" name them.
  [/\bwho\s+(?:wrote|writes|has\s+written|created|creates|authored)\b/gi, '$& the author of'],
  // "The cookie package", "the debug library" name a source: the noun says what it is, not what is asked.
  [/\bthe\s+([\w.@/-]+)\s+(?:package|library)\b/gi, 'the $1'],
  [/\b(?:turn|switch)(?:s|ed|ing)?\s+on\b/gi, 'enable'],
  [/\b(?:turn|switch)(?:s|ed|ing)?\s+off\b/gi, 'disable'],
  // The particle after the object ("turn colors off"): up to three words between, none a
  // preposition ("turn it into a string on Windows" turns nothing on).
  [
    /\b(?:turn|switch)(?:s|ed|ing)?\s+((?:(?!(?:into|in|to|from)\s)[\w'’.-]+\s+){0,2}?(?!(?:into|in|to|from)\s)[\w'’.-]+)\s+on\b/gi,
    'enable $1',
  ],
  [
    /\b(?:turn|switch)(?:s|ed|ing)?\s+((?:(?!(?:into|in|to|from)\s)[\w'’.-]+\s+){0,2}?(?!(?:into|in|to|from)\s)[\w'’.-]+)\s+off\b/gi,
    'disable $1',
  ],
];

/**
 * A question in the words documents use: phrasal verbs in one word ("turn on send's debug output" →
 * "enable …"), "when none is set" as "by default", "the cookie package" as "the cookie".
 */
export function inDocumentWords(text: string): string {
  return PHRASAL.reduce((t, [pattern, verb]) => t.replace(pattern, verb), text);
}
