import type { AppContext } from '../context.js';
import type { ProviderEnvelope } from '../providers/beta/envelope.js';
import type { SeoOperation, SeoProvider } from '../providers/beta/seo-provider.js';
import { localSeoProvider } from '../providers/beta/local/seo-local.js';
import { upstreamSeoProvider } from '../providers/beta/upstream.js';

const providers = new WeakMap<AppContext, SeoProvider>();

/** The SEO provider of this server: the upstream when one is configured, the local sandbox otherwise. */
export function seoProvider(ctx: AppContext): SeoProvider {
  let p = providers.get(ctx);
  if (!p) {
    const upstream = ctx.config.upstreams?.beta;
    p = upstream ? upstreamSeoProvider(upstream, ctx.fetchPolicy) : localSeoProvider(ctx.tokenSecret, ctx.db);
    providers.set(ctx, p);
  }
  return p;
}

/** One SEO request: the body (an array of tasks) goes to the provider, the envelope comes back. */
export function postSeo(
  ctx: AppContext,
  operation: SeoOperation,
  path: string,
  body: unknown,
  owner?: string,
): Promise<ProviderEnvelope> {
  return seoProvider(ctx).post(operation, path, body, owner);
}
