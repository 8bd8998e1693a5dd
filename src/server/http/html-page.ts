import type { FastifyReply } from 'fastify';
import { HttpError } from '../errors.js';
import { escapeMarkup } from '../text/escape-markup.js';

/**
 * What pages of the platform may load: nothing from the network, only their own inline styles
 * and pictures from this server or data: URIs. A page that needed more would be broken offline.
 */
export const PAGE_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; font-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const SHELL_CSS = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6473;--bg:#f6f7f9;--card:#fff;--line:#dfe3ea;--accent:#2f5fd0}
@media (prefers-color-scheme:dark){:root{--fg:#e8ebf1;--muted:#a2abba;--bg:#14171d;--card:#1d2129;--line:#2e3440;--accent:#8fb0ff}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 "DejaVu Sans",system-ui,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:960px;margin:0 auto;padding:32px 20px 64px}h1{font-size:1.6rem;margin:0 0 4px}
.sub{color:var(--muted);margin:0 0 24px}a{color:var(--accent)}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:0 0 12px}
.card h2{font-size:1.05rem;margin:0 0 4px}.meta{color:var(--muted);font-size:.85rem}.snippet{margin:6px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.error{border-left:4px solid #c0392b}`;

/** A complete, self-contained page: one document, inline CSS, no external asset. */
export function renderPage(input: { title: string; body: string; css?: string; lang?: string }): string {
  return `<!DOCTYPE html>
<html lang="${escapeMarkup(input.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeMarkup(input.title)}</title>
<style>${SHELL_CSS}${input.css ?? ''}</style>
</head>
<body>
<main>
${input.body}
</main>
</body>
</html>
`;
}

/**
 * The headers every viewer page (LiveDoc, slides, landing pages, mindmaps) is sent with: its CSP, no
 * framing by another site (X-Frame-Options for browsers that ignore frame-ancestors), never cached by
 * others, no referrer (a signed link must not leak through one).
 */
export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'private, no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff');
}

export function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return pageHeaders(reply.code(status)).header('content-type', 'text/html; charset=utf-8').send(html);
}

/**
 * Runs a page handler; an HttpError becomes an HTML page with its status and message (a browser
 * shows it to a person), anything else a plain 500 page that reveals nothing.
 */
export async function servePage(
  reply: FastifyReply,
  render: () => Promise<string | FastifyReply>,
): Promise<FastifyReply> {
  try {
    const out = await render();
    return typeof out === 'string' ? sendHtml(reply, 200, out) : out;
  } catch (err) {
    const known = err instanceof HttpError;
    const status = known ? err.status : 500;
    const message = known ? err.message : 'something went wrong on the server while making this page';
    if (!known) reply.log.error({ err }, 'page failed');
    const sentence = message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
    const title =
      status === 403 ? 'Link not valid' : status === 404 ? 'Not found' : status === 409 ? 'Not ready yet' : 'Error';
    return sendHtml(
      reply,
      status,
      renderPage({
        title,
        body: `<div class="card error"><h1>${escapeMarkup(title)}</h1><p>${escapeMarkup(sentence)}</p></div>`,
      }),
    );
  }
}
