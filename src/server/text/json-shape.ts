/**
 * How much a JSON text would build, read from its bytes without building it: the values it holds
 * (object members and array items) and the most members of one object. JSON.parse's cost follows
 * those, not the bytes — 700,000 keys in 8 MB take the better part of a second, and a single object
 * of many keys costs most of all — so a large body is measured first, off the event loop, and
 * parsed only when that cost is bounded.
 */

/** Bodies up to this size are parsed at once: at worst a few milliseconds, whatever they hold. */
export const JSON_OFF_LOOP_BYTES = 128 * 1024;
/** Values (object members and array items) a body over JSON_OFF_LOOP_BYTES may hold. */
export const MAX_JSON_VALUES = 100_000;
/** Members one object of such a body may have. */
export const MAX_OBJECT_MEMBERS = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OBJECT = -1;

/**
 * Why the text is refused (it holds too much), or null. Inside strings nothing counts; the text
 * need not be valid JSON — the parse that follows finds errors, and builds no more than counted
 * here before the first one, since up to it both read the text alike.
 */
export function jsonShapeRefusal(
  bytes: Uint8Array,
  limits: { values: number; members: number } = { values: MAX_JSON_VALUES, members: MAX_OBJECT_MEMBERS },
): string | null {
  // Per open container: OBJECT's member count is kept in `members`; an array's entry is 0 until
  // it has an item, then 1 (its further items are counted at their commas).
  const kinds: number[] = [];
  const members: number[] = [];
  let values = 0;
  let inString = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    const top = kinds.length - 1;
    if (c === COLON) {
      if (top >= 0 && kinds[top] === OBJECT && ++members[top] > limits.members)
        return `an object of the body has more than ${limits.members} members`;
      values++;
    } else if (c === COMMA) {
      if (top >= 0 && kinds[top] !== OBJECT) values++;
    } else if (c === 0x7d || c === 0x5d) {
      kinds.pop();
      members.pop();
    } else {
      // The start of a value: an array's first item is counted here.
      if (top >= 0 && kinds[top] === 0) {
        kinds[top] = 1;
        values++;
      }
      if (c === QUOTE) inString = true;
      else if (c === 0x7b) {
        kinds.push(OBJECT);
        members.push(0);
      } else if (c === 0x5b) {
        kinds.push(0);
        members.push(0);
      }
    }
    if (values > limits.values) return `the body holds more than ${limits.values} JSON values`;
  }
  return null;
}
