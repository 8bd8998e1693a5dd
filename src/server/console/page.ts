import type { AppContext } from '../context.js';
import type { UserRow } from '../store/users.repo.js';
import type { AuditActor } from '../services/audit.service.js';

/** What a console page handler is given: the signed-in user, the form token, and the request's parts. */
export interface PageInput {
  ctx: AppContext;
  user: UserRow;
  /** The synchronizer token every form of the page must carry (hidden field `csrf`). */
  csrf: string;
  /** The audit trail's actor for any change the page makes: the user, via their console session. */
  actor: AuditActor;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** The posted form's fields (POST handlers only). */
  form: Record<string, string>;
}

/**
 * A page's body (HTML, every value escaped) and title, or where to send the browser after a form.
 * `scripts` are the console's own script files (under /console/assets/) the page loads; only such a
 * page's policy allows script, and only from its own origin. The page must work without them.
 */
export type PageResult = { title: string; body: string; status?: number; scripts?: string[] } | { redirect: string };

export type PageHandler = (input: PageInput) => Promise<PageResult>;

/**
 * One console page: its place in the navigation and its routes, relative to /console/<slug>
 * ('' is the page itself; Fastify path syntax, e.g. '/:id'). Adding a page is one file exporting
 * one of these and a line in registry.ts.
 */
export interface ConsolePage {
  slug: string;
  /** The navigation's label. */
  label: string;
  get: Record<string, PageHandler>;
  post?: Record<string, PageHandler>;
}
