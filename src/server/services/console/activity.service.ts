import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import {
  adminLogTail,
  AuditQuery,
  LogTailQuery,
  ownLogTail,
  type AuditEntry,
  type RequestLogLine,
} from '../../../contract/audit.js';
import { RequestValidationError } from '../../errors.js';
import type { UserRow } from '../../store/users.repo.js';
import { auditPage } from '../audit.service.js';
import { lineFilter } from '../../logs/tail.js';

/** Audit entries a console page shows at once (the next link pages on). */
export const CONSOLE_AUDIT_PAGE = 50;
/** Recent request lines the Requests page renders from the ring before its live tail adds more. */
export const CONSOLE_RECENT_REQUESTS = 100;

type Raw = Record<string, string | undefined>;

/** A GET form sends every field, empty ones as ''; an empty field is no filter. */
const filled = (raw: Raw, names: readonly string[]) =>
  Object.fromEntries(
    names.flatMap((n) => {
      const value = raw[n]?.trim();
      return value ? [[n, value]] : [];
    }),
  );

/** A browser's datetime-local value (no zone) is read as UTC, as the page says; full ISO times pass as they are. */
const asUtc = (v: string | undefined) =>
  v && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v.length === 16 ? `${v}:00` : v}Z` : v;

const problems = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ');

export type Checked<T> =
  | { ok: true; value: T; filters: Record<string, string> }
  | { ok: false; message: string; filters: Record<string, string> };

export const AUDIT_FIELDS = ['actor', 'action', 'target', 'since', 'until'] as const;
export const TAIL_FIELDS = ['status', 'path', 'method', 'key'] as const;

/**
 * One page of the audit trail through the very service GET /admin/audit and GET /auth/audit call:
 * administrators see every entry, anyone else their own. Filters are checked by the API's schema.
 */
export async function consoleAudit(
  ctx: AppContext,
  user: UserRow,
  raw: Raw,
): Promise<Checked<{ entries: AuditEntry[]; nextCursor: string | null }>> {
  const filters = filled(raw, [...AUDIT_FIELDS, 'cursor']);
  const parsed = AuditQuery.safeParse({
    ...filters,
    since: asUtc(filters.since),
    until: asUtc(filters.until),
    limit: String(CONSOLE_AUDIT_PAGE),
  });
  if (!parsed.success) return { ok: false, message: problems(parsed.error), filters };
  try {
    return { ok: true, value: await auditPage(ctx, parsed.data, user.role === 'admin' ? undefined : user.id), filters };
  } catch (err) {
    if (err instanceof RequestValidationError) return { ok: false, message: err.message, filters };
    throw err;
  }
}

/**
 * The newest lines of the request log this user may see (all for administrators, their own keys'
 * otherwise, as the tails decide), and the tail the page's script follows for the lines to come.
 */
export function consoleRequests(
  ctx: AppContext,
  user: UserRow,
  raw: Raw,
): Checked<{ lines: RequestLogLine[]; tail: string }> {
  const filters = filled(raw, TAIL_FIELDS);
  const parsed = LogTailQuery.safeParse(filters);
  if (!parsed.success) return { ok: false, message: problems(parsed.error), filters };
  const admin = user.role === 'admin';
  const keep = lineFilter({ ...parsed.data, ownerUserId: admin ? undefined : user.id });
  const query = new URLSearchParams(filters).toString();
  const tail = `${admin ? adminLogTail.path : ownLogTail.path}${query ? `?${query}` : ''}`;
  return { ok: true, value: { lines: ctx.requestLog.recent(CONSOLE_RECENT_REQUESTS, keep), tail }, filters };
}
