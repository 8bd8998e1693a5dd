import type { ConsolePage } from './page.js';
import { keysPage } from './pages/keys.js';
import { usagePage } from './pages/usage.js';
import { auditPage } from './pages/audit.js';
import { requestsPage } from './pages/requests.js';
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
  auditPage,
  requestsPage,
  tasksPage,
  liveDocsPage,
  decksPage,
  viewersPage,
];
