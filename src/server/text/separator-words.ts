/**
 * Words that separate a question's parts or subjects ("and", "or", "vs."), as a regular
 * expression's alternatives: each only where it stands alone, not joined by hyphens into a name
 * (textlint-rule-no-mixed-zenkaku-and-hankaku-alphabet is one name).
 */
export const separatorWords = (...words: string[]) => words.map((w) => `(?<![\\w-])${w}(?![\\w-])`).join('|');
