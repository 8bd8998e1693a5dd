declare module 'linebreak' {
  /** The Unicode line breaking algorithm (UAX #14): where a line may or must break. */
  export default class LineBreaker {
    constructor(text: string);
    /** The next break opportunity: before `position`; `required` after a hard break (a newline). */
    nextBreak(): { position: number; required: boolean } | null;
  }
}
