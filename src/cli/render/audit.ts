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
        { header: 'TIME', value: (e) => e.time },
        { header: 'ACTOR', value: actorText },
        { header: 'ACTION', value: (e) => e.action },
        { header: 'TARGET', value: (e) => `${e.target.type} ${e.target.id ?? ''}`.trim() },
        { header: 'CHANGE', value: changeText },
        { header: 'FROM', value: (e) => e.client.ip ?? '' },
        { header: 'REQUEST', value: (e) => e.request_id ?? '' },
      ],
      { empty: 'No audit entries for this filter.' },
    ),
  );
}
