import { z } from 'zod';
import { textInt } from './fields.js';
import { defineRoute } from './route.js';
import { IMAGE_ROUTE_ERRORS } from './errors.js';

/** Issue 30: the audit trail (read-only; entries are never changed or deleted through the API) and the live request log. */

export const AuditEntry = z.object({
  id: z.string(),
  time: z.string(),
  actor: z.object({
    kind: z
      .enum(['key', 'token', 'cookie', 'local-admin', 'system'])
      .describe('what the change was made with; local-admin = an offline `facet serve` command'),
    user_id: z.string().nullable(),
    credential_id: z.string().nullable().describe('the key id it was made with; never a secret'),
  }),
  action: z
    .string()
    .describe(
      'key.created, key.frozen, key.unfrozen, key.deleted, key.expired, user.created, user.credits_changed, user.plan_changed, admin_key.used, token.issued, session.login, livedoc.shared, livedoc.unshared, model.hidden, model.shown, theme.imported, theme.deleted',
    ),
  target: z.object({ type: z.string(), id: z.string().nullable() }),
  subject_user_id: z.string().nullable().describe('the user the change is about (a key’s owner)'),
  request_id: z.string().nullable(),
  client: z.object({ ip: z.string().nullable(), user_agent: z.string().nullable() }),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  instance: z
    .string()
    .nullable()
    .describe('the instance the change was made through (`facet serve --instance-id`); null for offline commands'),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Filters of an audit page; newest first, `limit` at a time, the next page's cursor in X-Next-Cursor. */
export const AuditQuery = z.object({
  actor: z.string().min(1).max(100).optional().describe('a user id, a key id, or local-admin / system'),
  action: z
    .string()
    .regex(/^[a-z_.]{1,60}\*?$/, 'an action such as key.frozen, or a prefix ending in * (key.*)')
    .optional(),
  target: z.string().min(1).max(100).optional().describe('the target’s id (a key id, a user id, …)'),
  since: z.iso.datetime({ offset: true }).optional().describe('entries at or after this time (ISO 8601)'),
  until: z.iso.datetime({ offset: true }).optional().describe('entries before this time (ISO 8601)'),
  limit: textInt({ min: 1, max: 500, default: 100 }),
  cursor: z.string().min(1).max(300).optional().describe('X-Next-Cursor of the previous page'),
});

export const adminAudit = defineRoute({
  id: 'admin.audit',
  method: 'GET',
  path: '/admin/audit',
  auth: 'admin',
  family: 'image',
  tag: 'admin',
  summary:
    'The audit trail of every change to keys, users and settings, newest first, `limit` at a time; when more follow, X-Next-Cursor holds the `cursor` of the next page and Link its URL (rel="next")',
  query: AuditQuery,
  responses: { 200: z.array(AuditEntry), ...IMAGE_ROUTE_ERRORS },
});

export const ownAudit = defineRoute({
  id: 'auth.audit',
  method: 'GET',
  path: '/auth/audit',
  auth: 'token-or-key',
  family: 'image',
  tag: 'auth',
  summary:
    'Your own audit entries (what you did, and what was done to your keys and account), paged like GET /admin/audit',
  query: AuditQuery,
  responses: { 200: z.array(AuditEntry), ...IMAGE_ROUTE_ERRORS },
});

/** One request as the live log shows it: no secret, no query string (signed links carry capabilities there). */
export const RequestLogLine = z.object({
  time: z.string().describe('when the answer was sent'),
  method: z.string(),
  path: z.string().describe('the path without its query string; stream keys redacted'),
  status: z.number().int(),
  duration_ms: z.number(),
  key_id: z
    .string()
    .nullable()
    .describe('the API key the request was made with; null for tokens, cookies and unauthenticated requests'),
  user_id: z.string().nullable(),
  request_id: z.string(),
  instance: z
    .string()
    .nullable()
    .describe(
      'the instance that served it: its `--instance-id` (default host:port), as audit entries and metrics name it',
    ),
});
export type RequestLogLine = z.infer<typeof RequestLogLine>;

export const LogTailQuery = z.object({
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5]\d\d)(,([1-5]xx|[1-5]\d\d))*$/, 'status classes (4xx) or codes (404), comma-separated')
    .optional(),
  path: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('a glob over the path: * within a segment, ** across segments (/v2/*)'),
  key: z.string().min(1).max(100).optional().describe('only requests made with this key id'),
  method: z
    .string()
    .regex(/^[A-Za-z]{1,10}$/)
    .optional(),
});

const tailStream = {
  status: 200,
  description:
    'a `ready` event once the tail is open, then one `request` event per answered request as it happens (no replay of earlier ones); heartbeat comments keep proxies from closing it',
  events: [
    {
      event: 'ready',
      data: z
        .object({ instance: z.string().nullable(), ring_size: z.number().int() })
        .describe('sent once when the tail is open: lines from here on arrive'),
    },
    { event: 'request', data: RequestLogLine },
  ],
} as const;

export const adminLogTail = defineRoute({
  id: 'admin.logs.tail',
  method: 'GET',
  path: '/admin/logs/tail',
  // The cookie too: the console's Requests page opens this tail as an EventSource, which sends no headers.
  auth: 'admin-or-cookie',
  family: 'image',
  tag: 'admin',
  summary:
    "Server-sent events: every user's requests as they are answered, on every instance, filtered by status, path, key and method",
  query: LogTailQuery,
  responses: { 200: { contentType: 'text/event-stream', description: 'request events' }, ...IMAGE_ROUTE_ERRORS },
  stream: tailStream,
});

export const ownLogTail = defineRoute({
  id: 'auth.logs.tail',
  method: 'GET',
  path: '/auth/logs/tail',
  auth: 'token-key-or-cookie',
  family: 'image',
  tag: 'auth',
  summary:
    'Server-sent events: the requests made with your own keys as they are answered, filtered like GET /admin/logs/tail',
  query: LogTailQuery,
  responses: { 200: { contentType: 'text/event-stream', description: 'request events' }, ...IMAGE_ROUTE_ERRORS },
  stream: tailStream,
});

export const auditRoutes = [adminAudit, ownAudit, adminLogTail, ownLogTail];
