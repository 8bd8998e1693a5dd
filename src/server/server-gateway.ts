import type { AppContext, ServerConfig } from './context.js';
import type { ModelDirectory } from './engines/gateway/directory.js';
import { createGateway } from './engines/gateway/gateway.js';
import type { GroundingSource } from './engines/gateway/local-engines.js';
import { analyzeQuery } from './engines/query-analysis.js';
import { ground } from './services/grounding.service.js';
import { visibleIds } from './store/livedocs.repo.js';

/** The configured model gateway; its grounded local model searches the caller's LiveDocs unless `grounding` is given. */
export function serverGateway(
  { db, now, metrics }: Pick<AppContext, 'db' | 'now' | 'metrics'>,
  directory: ModelDirectory,
  config: ServerConfig,
  grounding?: GroundingSource,
) {
  return createGateway({
    ctx: { db, now, metrics },
    directory,
    upstreams: config.upstreams ?? {},
    limits: config.gatewayLimits,
    // /api/v1 calls of the grounded model search the caller's own and shared LiveDocs.
    grounding:
      grounding ??
      (async (query, scope) => {
        const found = await ground(
          { db },
          analyzeQuery(query),
          { livedocIds: await visibleIds(db, scope.userId) },
          { question: query },
        );
        return found.passages.map((p) => ({
          id: String(p.ref),
          title: p.title,
          link: p.link,
          content: p.content,
          opening: p.opening,
        }));
      }),
    defaultModel: config.defaultModel,
  });
}
