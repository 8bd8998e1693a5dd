import type { CompiledQuery, Kysely } from 'kysely';

type Slot<K> = { name: K } | { value: unknown };

/**
 * A hot statement whose shape never changes (a write made on every metered call), built and
 * compiled by Kysely once per database and then run with new parameter values: building the query
 * tree again on every call costs more than running it. `build` is called once, with a marker for
 * each named value; each marker must reach the compiled parameters as a value, never the SQL text.
 */
export function reusableStatement<DB, K extends string>(
  names: readonly K[],
  // A marker stands where a value of any column type goes: `never` is assignable to all of them.
  build: (db: Kysely<DB>, values: Record<K, never>) => CompiledQuery,
): (db: Kysely<DB>, values: Record<K, unknown>) => CompiledQuery {
  // A transaction is a Kysely of its own: it compiles afresh, and its entry goes with it.
  const compiled = new WeakMap<Kysely<DB>, { template: CompiledQuery; slots: Array<Slot<K>> }>();
  return (db, values) => {
    let entry = compiled.get(db);
    if (!entry) {
      // Not NUL, which no store takes as a value (unstorable-text.ts), should a marker ever reach one.
      const markers = new Map(names.map((name) => [`\u0001${name}\u0001`, name]));
      const template = build(db, Object.fromEntries([...markers].map(([m, n]) => [n, m])) as Record<K, never>);
      const slots = template.parameters.map((v): Slot<K> =>
        typeof v === 'string' && markers.has(v) ? { name: markers.get(v)! } : { value: v },
      );
      for (const name of names)
        if (!slots.some((s) => 'name' in s && s.name === name))
          throw new Error(`reusableStatement: the value ${name} is not a parameter of the statement`);
      entry = { template, slots };
      compiled.set(db, entry);
    }
    const { template, slots } = entry;
    return { ...template, parameters: slots.map((s) => ('name' in s ? values[s.name] : s.value)) };
  };
}
