import type { Kysely, Transaction } from 'kysely';
import type { AuditEntry } from '../../contract/audit.js';
import type { Database } from '../store/database.js';
import { decodePageCursor, encodePageCursor } from './page-cursor.js';
import { insertAudit, listAuditPage, pruneAuditBefore, type AuditRow } from '../store/audit.repo.js';
import { newId } from '../store/ids.js';
import { redactSecrets } from '../auth/secrets.js';
import type { AppContext } from '../context.js';

type Ctx = Pick<AppContext, 'db' | 'now'>;

/** Who made a change, and from where: never a secret, only ids. */
export interface AuditActor {
  kind: 'key' | 'token' | 'cookie' | 'local-admin' | 'system';
  userId: string | null;
  /** The key id (or session id) the request was made with. */
  credentialId: string | null;
  requestId: string | null;
  clientIp: string | null;
  userAgent: string | null;
  /** The instance the change was made through (`--instance-id`); absent for offline commands. */
  instanceId?: string | null;
}

/** Offline commands (`facet serve users …`, `facet serve token`) and the first start's bootstrap. */
export const LOCAL_ADMIN: AuditActor = {
  kind: 'local-admin',
  userId: null,
  credentialId: null,
  requestId: null,
  clientIp: null,
  userAgent: null,
};
/** The server itself: the expiry sweep, and services called without a request (tests, jobs). */
export const SYSTEM: AuditActor = {
  kind: 'system',
  userId: null,
  credentialId: null,
  requestId: null,
  clientIp: null,
  userAgent: null,
};

/** What changed: the action, its target, whose thing it is, and the changed fields before and after. */
export interface AuditChange {
  action: string;
  targetType: string;
  targetId: string | null;
  subjectUserId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

// A key pasted into a name, a description or any other free text is not kept (issue 47): the trail
// is read by administrators and exported, and a key's record already names it by id and prefix.
const json = (v: Record<string, unknown> | null | undefined) => (v ? redactSecrets(JSON.stringify(v)) : null);

export function auditRow(now: Date, actor: AuditActor, change: AuditChange): AuditRow {
  return {
    id: newId('aud'),
    at: now.toISOString(),
    actor_kind: actor.kind,
    actor_user_id: actor.userId,
    actor_credential_id: actor.credentialId,
    action: change.action,
    target_type: change.targetType,
    target_id: change.targetId,
    subject_user_id: change.subjectUserId ?? null,
    request_id: actor.requestId,
    client_ip: actor.clientIp,
    user_agent: actor.userAgent,
    before: json(change.before),
    after: json(change.after),
    instance_id: actor.instanceId ?? null,
  };
}

/** Records an entry inside the change's own transaction (or on its own, for events such as a login). */
export async function recordAudit(
  ctx: Ctx,
  actor: AuditActor,
  change: AuditChange,
  trx?: Transaction<Database> | Kysely<Database>,
): Promise<void> {
  await insertAudit(trx ?? ctx.db, auditRow(ctx.now(), actor, change));
}

export function entryOf(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    time: row.at,
    actor: {
      kind: row.actor_kind as AuditEntry['actor']['kind'],
      user_id: row.actor_user_id,
      credential_id: row.actor_credential_id,
    },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    subject_user_id: row.subject_user_id,
    request_id: row.request_id,
    client: { ip: row.client_ip, user_agent: row.user_agent },
    before: row.before ? (JSON.parse(row.before) as Record<string, unknown>) : null,
    after: row.after ? (JSON.parse(row.after) as Record<string, unknown>) : null,
    instance: row.instance_id ?? null,
  };
}

export interface AuditQuery {
  actor?: string;
  action?: string;
  target?: string;
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
}

/** A page of entries, newest first; `visibleTo` limits it to one user's own (GET /auth/audit). */
export async function auditPage(
  ctx: Ctx,
  query: AuditQuery,
  visibleTo?: string,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const [at, id] = query.cursor ? decodePageCursor(query.cursor) : [];
  const after = at && id ? { at, id } : undefined;
  const { rows, more } = await listAuditPage(ctx.db, { ...query, visibleTo, after });
  const last = rows.at(-1);
  return { entries: rows.map(entryOf), nextCursor: more && last ? encodePageCursor(last.at, last.id) : null };
}

/** Default days an entry is kept (`facet serve --audit-retention-days`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** The retention sweep: deletes entries older than `days` before now; returns how many went. */
export function pruneAudit(ctx: Ctx, days: number): Promise<number> {
  return pruneAuditBefore(ctx.db, new Date(ctx.now().getTime() - days * 86_400_000).toISOString());
}
