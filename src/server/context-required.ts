/** A context field startServer always sets, typed optional so partial contexts in tests stay easy. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not configured in this AppContext`);
  return value;
}
