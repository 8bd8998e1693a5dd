import * as c from '../contract/landing-pages.js';
import { callRoute } from './call.js';
import { buildForm } from './multipart.js';
import type { Transport } from './transport.js';

export interface LandingPageInput {
  query: string;
  livedoc_short_id?: string;
  resource_ids?: string[];
  stream_protocol?: string;
  /** A local file to send as the page's context (multipart, part "file"). */
  file?: string;
}

export interface LandingPageCreated {
  task_id: string;
  /** What the page cost and the balance left, from the answer's headers. */
  credits: { cost: number | null; remaining: number | null };
}

const num = (v: string | string[] | undefined) => (v === undefined ? null : Number(Array.isArray(v) ? v[0] : v));

export const landingPagesClient = (t: Transport) => ({
  /** JSON, or multipart when a file is given (resource_ids do not travel in the multipart form). */
  async create(input: LandingPageInput): Promise<LandingPageCreated> {
    const route = c.createLandingPage;
    const { file, ...json } = input;
    const res = await t.send({
      method: route.method,
      path: route.path,
      auth: route.auth,
      service: 'platform',
      retries: 0,
      ...(file
        ? {
            form: await buildForm(
              { query: json.query, livedoc_short_id: json.livedoc_short_id, stream_protocol: json.stream_protocol },
              [{ field: 'file', file }],
            ),
          }
        : { body: json }),
    });
    const parsed = t.parse<{ data: { task_id: string } }>(res);
    return {
      task_id: parsed.data.task_id,
      credits: {
        cost: num(res.headers[c.LANDING_PAGE_CREDIT_HEADERS.cost]),
        remaining: num(res.headers[c.LANDING_PAGE_CREDIT_HEADERS.remaining]),
      },
    };
  },
  /**
   * The page's HTML from its signed link (ai_page_html), fetched through this client's base URL:
   * the link's path and signature are what open it, not the host the server named.
   */
  async html(link: string): Promise<string> {
    const u = new URL(link);
    const res = await t.send({
      method: 'GET',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      auth: 'none',
      service: 'platform',
      headers: { accept: 'text/html' },
      raw: true,
    });
    if (res.status !== 200)
      throw new Error(
        `the page answered ${res.status}: ${res.body
          .toString('utf8')
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 300)}`,
      );
    return res.body.toString('utf8');
  },
  ledger: (query: { page?: number; size?: number } = {}) => callRoute(t, c.creditLedger, { query }),
});
