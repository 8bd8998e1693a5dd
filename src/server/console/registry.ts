import type { ConsolePage } from './page.js';
import { keysPage } from './pages/keys.js';
import { usagePage } from './pages/usage.js';
import { tasksPage } from './pages/tasks.js';
import { liveDocsPage } from './pages/livedocs.js';
import { decksPage } from './pages/decks.js';
import { viewersPage } from './pages/viewers.js';

/**
 * The console's pages, in navigation order; the first is where signing in lands. A page is one
 * file under pages/ exporting a ConsolePage (page.ts), listed here.
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  keysPage,
  usagePage,
  // ── Reserved: the audit trail and the live request log (issue 30) are built separately; their
  // pages go here as `auditPage` (slug 'audit', label 'Audit', over GET /admin/audit and
  // GET /auth/audit) and `requestsPage` (slug 'requests', label 'Requests', the request log).
  tasksPage,
  liveDocsPage,
  decksPage,
  viewersPage,
];
