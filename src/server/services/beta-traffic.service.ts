import type { TrafficQuery, TrafficResult } from '../../contract/beta-traffic.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { TrafficProvider } from '../providers/beta/traffic-provider.js';
import { landingPages as localLandingPages } from '../providers/beta/local/traffic.js';
import { upstreamTrafficProvider } from '../providers/beta/upstream.js';
import { landingPages as landingPagesRoute, TRAFFIC_MAX_MONTHS } from '../../contract/beta-traffic.js';

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7));

const providers = new WeakMap<AppContext, TrafficProvider>();

export function trafficProvider(ctx: AppContext): TrafficProvider {
  let p = providers.get(ctx);
  if (!p) {
    const upstream = ctx.config.upstreams?.beta;
    p = upstream
      ? upstreamTrafficProvider(upstream, ctx.fetchPolicy, landingPagesRoute.path)
      : { kind: 'local', landingPages: async (q) => localLandingPages(q) };
    providers.set(ctx, p);
  }
  return p;
}

export async function landingPages(ctx: AppContext, query: TrafficQuery): Promise<TrafficResult> {
  if (query.start_date > query.end_date)
    throw new HttpError('INVALID_PARAMETER', `start_date ${query.start_date} is after end_date ${query.end_date}`);
  const span = monthIndex(query.end_date) - monthIndex(query.start_date) + 1;
  if (span > TRAFFIC_MAX_MONTHS)
    throw new HttpError(
      'INVALID_PARAMETER',
      `start_date ${query.start_date} to end_date ${query.end_date} is ${span} months; at most ${TRAFFIC_MAX_MONTHS} in one request`,
    );
  return trafficProvider(ctx).landingPages(query);
}
