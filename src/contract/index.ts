import type { RouteDef } from './route.js';
import { imageAuthRoutes } from './image-auth.js';
import { imageAdminRoutes } from './image-admin.js';
import { imageModelRoutes } from './image-models.js';
import { systemRoutes } from './system.js';
import { modelApiRoutes } from './model-api.js';
import { storedResponseRoutes } from './model-api-stored.js';
import { adminModelRoutes } from './admin-models.js';
import { livedocRoutes } from './livedocs-routes.js';
import { chatRoutes } from './chat.js';
import { conversationRoutes } from './conversations.js';
import { imageProjectRoutes } from './image-projects.js';
import { imageTaskRoutes } from './image-tasks.js';
import { socialRoutes } from './social-routes.js';
import { betaSeoRoutes } from './beta-seo.js';
import { betaFinancialRoutes } from './beta-financial.js';
import { betaTrafficRoutes } from './beta-traffic.js';
import { betaReviewRoutes } from './beta-reviews.js';
import { betaAppDataRoutes } from './beta-app-data.js';
import { webRoutes } from './web.js';
import { subtitleRoutes } from './subtitles.js';
import { scrapeRoutes } from './scrape.js';
import { docTaskRoutes } from './doc-tasks.js';
import { pageRoutes } from './pages.js';
import { mindmapRoutes } from './mindmap.js';
import { slideRoutes } from './slides.js';
import { landingPageRoutes } from './landing-pages.js';
import { auditRoutes } from './audit.js';
import { mcpRoutes } from './mcp.js';
import { ownUsageRoutes } from './own-usage.js';

export * from './route.js';
export * from './errors.js';
export * from './envelopes.js';

/** Every route of the API. Each surface adds its list here and nowhere else. */
export const ROUTES: readonly RouteDef[] = [
  ...systemRoutes,
  ...imageAuthRoutes,
  ...imageAdminRoutes,
  ...imageModelRoutes,
  ...modelApiRoutes,
  ...storedResponseRoutes,
  ...adminModelRoutes,
  ...livedocRoutes,
  ...chatRoutes,
  ...conversationRoutes,
  ...imageProjectRoutes,
  ...imageTaskRoutes,
  ...socialRoutes,
  ...betaSeoRoutes,
  ...betaFinancialRoutes,
  ...betaTrafficRoutes,
  ...betaReviewRoutes,
  ...betaAppDataRoutes,
  ...webRoutes,
  ...subtitleRoutes,
  ...scrapeRoutes,
  ...docTaskRoutes,
  ...pageRoutes,
  ...mindmapRoutes,
  ...slideRoutes,
  ...landingPageRoutes,
  ...auditRoutes,
  ...mcpRoutes,
  ...ownUsageRoutes,
];

/**
 * Path prefixes whose unknown paths still belong to a surface: the server answers them in that
 * surface's envelope after that surface's authentication, and the CLI's `api` command picks the
 * surface's credentials from them.
 */
export const SURFACE_PREFIXES = [
  { prefix: '/v2/', auth: 'bearer-key', family: 'v2' },
  { prefix: '/v1/beta/', auth: 'bearer-key', family: 'beta' },
  // The Messages family's own paths answer in its shape; the rest of /api/v1 in OpenAI's.
  { prefix: '/api/v1/messages/', auth: 'key', family: 'anthropic' },
  { prefix: '/api/v1/complete', auth: 'key', family: 'anthropic' },
  { prefix: '/api/v1/', auth: 'key', family: 'openai' },
  { prefix: '/admin/', auth: 'admin', family: 'image' },
  { prefix: '/auth/', auth: 'access-token', family: 'image' },
  { prefix: '/tasks', auth: 'token-or-key', family: 'image' },
  { prefix: '/projects', auth: 'token-or-key', family: 'image' },
  // With --no-mcp, /mcp still answers as the surface it is: authentication first, then 404.
  { prefix: '/mcp', auth: 'bearer-key', family: 'mcp' },
] as const satisfies ReadonlyArray<Pick<RouteDef, 'auth' | 'family'> & { prefix: string }>;

export function surfaceOf(path: string): (typeof SURFACE_PREFIXES)[number] | undefined {
  return SURFACE_PREFIXES.find((s) => path === s.prefix.replace(/\/$/, '') || path.startsWith(s.prefix));
}

/** Finds the route a concrete method and path belong to. */
export function matchRoute(method: string, path: string): RouteDef | undefined {
  const clean = path.split('?')[0];
  return ROUTES.find((r) => {
    if (r.method !== method.toUpperCase()) return false;
    const pattern = new RegExp('^' + r.path.replace(/\{\w+\}/g, '[^/]+') + '$');
    return pattern.test(clean);
  });
}
