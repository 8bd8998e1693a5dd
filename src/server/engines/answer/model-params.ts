/**
 * The answer model's few parameters. Fitted on bench/content's dev split only (never on its
 * held-out documents); change them only by measuring that split again.
 */
export const PARAMS = {
  /** BM25 saturation: how quickly repeating a matched term stops adding. */
  k1: 1.2,
  /** BM25 length normalisation of the unit's own text. */
  b: 0.6,
  /**
   * Field weights: the unit's text, its key (a definition's term, a row's key: what it is about),
   * its context (table header, lead-in, caption), its headings, its source's title.
   */
  weights: { text: 1, key: 1.5, context: 0.6, headings: 1, title: 0.3 },
  /** A unit's score grows by up to this share when the question names its whole key (a term, a row key). */
  keyNamed: 0.5,
  /** For a list question, how much a group's items' own text counts beside its lead-in and headings. */
  groupText: 0.3,
  /** A verb the question is phrased with ("makes", "use") counts this much of a term; it is no key term. */
  lightVerb: 0.5,
  /** A term found in the question's earlier turns counts this much of a term of the question. */
  history: 0.25,
  /** A unit of the kind a question's form asks for (code for "how do I") is worth this many times more. */
  formBoost: 1.4,
  /** A key term a unit holds only as another word of its stem ("complete" for "completion") counts this much. */
  stemOnly: 0.5,
  /**
   * A key term the unit's source never holds weighs as the rarest term, times this when its word is
   * rare in everyday English (a technical term: "lookbehind", "comma"), not a common word said in other words.
   */
  rareAbsent: 1.75,
  /** Below this share of the question's key-term weight held by its best unit, the sources do not cover it. */
  minCoverage: 0.32,
  /** Units scoring at least this share of a part's best also answer it (when short enough). */
  closeShare: 0.6,
  /**
   * A section whose own heading holds this share of a part's key-term weight (a FAQ's question, a
   * how-to's title) asks what the part asks: its opening paragraph answers it.
   */
  headingAnswers: 0.75,
  /** Most characters a part's answer quotes, unless the question asks for a list or a block. */
  maxChars: 400,
} as const;
