// Its own module so that renderers can use it without loading the output layer.
/** A value as one cell of text: nothing for null or undefined, JSON for an object. */
export function cell(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return '';
    case 'object':
      return value === null ? '' : JSON.stringify(value);
    case 'string':
      return value;
    default:
      return String(value);
  }
}
