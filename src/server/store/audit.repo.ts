import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AuditLogTable, Database } from './database.js';

export type AuditRow = Selectable<AuditLogTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** Appends entries; pass the change's own transaction so the change never commits without them. */
export async function insertAudit(db: Db, rows: AuditRow | AuditRow[]): Promise<void> {
  const list = Array.isArray(rows) ? rows : [rows];
  if (list.length > 0) await db.insertInto('audit_log').values(list).execute();
}

/** Where a page ended: the next page starts after this entry in (at, id) order, newest first. */
export interface AuditPosition {
  at: string;
  id: string;
}

export interface AuditFilter {
  /** A user id, a credential id, or an actor kind (local-admin, system). */
  actor?: string;
  /** An exact action, or a prefix ending in `*` (key.*). */
  action?: string;
  /** The target's id (a key id, a user id, a LiveDoc id…). */
  target?: string;
  since?: string;
  until?: string;
  /** A user's own view: what they did, and what was done to their things. */
  visibleTo?: string;
  after?: AuditPosition;
  limit: number;
}

/** One page, newest first; keyset paging, so entries added meanwhile never shift the next page. */
export async function listAuditPage(
  db: Kysely<Database>,
  f: AuditFilter,
): Promise<{ rows: AuditRow[]; more: boolean }> {
  let q = db.selectFrom('audit_log').selectAll();
  const actor = f.actor;
  if (actor)
    q = q.where((eb) =>
      eb.or([eb('actor_user_id', '=', actor), eb('actor_credential_id', '=', actor), eb('actor_kind', '=', actor)]),
    );
  // The contract allows only [a-z_.] in an action, so the prefix needs no LIKE escaping.
  if (f.action?.endsWith('*')) q = q.where('action', 'like', `${f.action.slice(0, -1)}%`);
  else if (f.action) q = q.where('action', '=', f.action);
  if (f.target) q = q.where('target_id', '=', f.target);
  if (f.since) q = q.where('at', '>=', f.since);
  if (f.until) q = q.where('at', '<', f.until);
  const me = f.visibleTo;
  if (me) q = q.where((eb) => eb.or([eb('actor_user_id', '=', me), eb('subject_user_id', '=', me)]));
  const after = f.after;
  if (after)
    q = q.where((eb) => eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]));
  const rows = await q
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit + 1)
    .execute();
  return { rows: rows.slice(0, f.limit), more: rows.length > f.limit };
}

/** The retention sweep: entries older than the cutoff go; returns how many. */
export async function pruneAuditBefore(db: Kysely<Database>, cutoffIso: string): Promise<number> {
  const result = await db.deleteFrom('audit_log').where('at', '<', cutoffIso).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
