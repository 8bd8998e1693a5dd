import type { AuditEntry } from '../../contract/audit.js';
import type { IO } from '../io/output.js';

/** The changed fields as `name: before → after`, the fields a create or delete names on one side only. */
export function changeText(e: AuditEntry): string {
  const before = e.before ?? {};
  const after = e.after ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (v: unknown) => (v === undefined ? '–' : typeof v === 'string' ? v : JSON.stringify(v));
  return names
    .filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n]))
    .map((n) => `${n}: ${show(before[n])} → ${show(after[n])}`)
    .join(', ');
}

const actorText = (e: AuditEntry) =>
  e.actor.user_id
    ? `${e.actor.user_id}${e.actor.credential_id ? ` (${e.actor.credential_id})` : ` (${e.actor.kind})`}`
    : e.actor.kind;

/** Entries as a table for people; `--json` prints the entries as the API sent them. */
export function printAudit(io: IO, entries: AuditEntry[]): void {
  io.print(entries, () =>
    io.table(
      entries,
      [
        // When, what and on which record stay whole at 80 columns; where from, the request id and the actor go first.
        { header: 'TIME', value: (e) => e.time, priority: 1 },
        { header: 'ACTOR', value: actorText, priority: 3 },
        { header: 'ACTION', value: (e) => e.action, priority: 1, whole: true },
        { header: 'TARGET', value: (e) => `${e.target.type} ${e.target.id ?? ''}`.trim(), priority: 1, whole: true },
        { header: 'CHANGE', value: changeText, priority: 2, min: 16 },
        { header: 'FROM', value: (e) => e.client.ip ?? '', priority: 3 },
        { header: 'REQUEST', value: (e) => e.request_id ?? '', priority: 3 },
      ],
      { empty: 'No audit entries for this filter.' },
    ),
  );
}
