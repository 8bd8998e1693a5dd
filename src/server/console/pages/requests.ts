import { escapeMarkup } from '../../text/escape-markup.js';
import type { RequestLogLine } from '../../../contract/audit.js';
import type { ConsolePage, PageInput } from '../page.js';
import { CONSOLE_PREFIX } from '../layout.js';
import { consoleRequests } from '../../services/console/activity.service.js';
import { RING_SIZE } from '../../logs/request-log.js';

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
// Time, status, method and path lead: on a phone the table scrolls sideways, and these stay in view.
const HEAD = ['Time', 'Status', 'Method', 'Path', 'Duration', 'Key', 'Request id'];

/** A select whose options are the known values; a valid value given in the URL (404, 4xx,5xx) is kept as one more. */
function select(name: string, label: string, values: string[], current: string | undefined): string {
  const all = current && !values.includes(current) ? [...values, current] : values;
  const options = [
    `<option value="">Any</option>`,
    ...all.map((v) => `<option${v === current ? ' selected' : ''}>${escapeMarkup(v)}</option>`),
  ].join('');
  return `<div><label for="f-${name}">${escapeMarkup(label)}</label><select id="f-${name}" name="${name}">${options}</select></div>`;
}

const text = (name: string, label: string, value: string | undefined, placeholder: string) =>
  `<div><label for="f-${name}">${escapeMarkup(label)}</label><input type="text" id="f-${name}" name="${name}" value="${escapeMarkup(value ?? '')}" placeholder="${escapeMarkup(placeholder)}" maxlength="200" spellcheck="false"></div>`;

/** One line as a table row; the page's script builds the very same cells for the lines that follow. */
function row(l: RequestLogLine): string {
  return `<tr><td><time datetime="${escapeMarkup(l.time)}">${escapeMarkup(l.time.slice(11, 19))}</time></td><td><span class="http http-${String(l.status).charAt(0)}xx">${l.status}</span></td><td>${escapeMarkup(l.method)}</td><td class="wrap"><code>${escapeMarkup(l.path)}</code></td><td><span class="num">${escapeMarkup(String(l.duration_ms))} ms</span></td><td>${l.key_id ? `<code>${escapeMarkup(l.key_id)}</code>` : '—'}</td><td><code>${escapeMarkup(l.request_id)}</code></td></tr>`;
}

async function list({ ctx, user, query }: PageInput) {
  const result = consoleRequests(ctx, user, query);
  const f = result.filters;
  const admin = user.role === 'admin';
  const form = `<form method="get" action="${CONSOLE_PREFIX}/requests" class="card filters" aria-label="Filter requests">
${select('status', 'Status', STATUS_CLASSES, f.status)}
${text('path', 'Path', f.path, '/v2/*')}
${select('method', 'Method', METHODS, f.method)}
${text('key', 'Key id', f.key, 'key_…')}
<div class="filter-actions"><button type="submit">Apply</button> <a class="button secondary" href="${CONSOLE_PREFIX}/requests">Clear</a></div>
</form>`;
  const intro = `<h1>Requests</h1>
<p class="sub">${admin ? 'Every request this server answers' : 'Requests made with your API keys'}: method, path (no query string), status, time taken, key id and request id, never a secret. Paths filter by glob: <code>*</code> matches across <code>/</code>.</p>
${form}`;
  if (!result.ok) {
    return {
      title: 'Requests',
      status: 400,
      body: `${intro}\n<div class="card error" role="alert"><p>${escapeMarkup(`These filters are not valid: ${result.message}.`)}</p></div>`,
    };
  }
  const { lines, tail } = result.value;
  return {
    title: 'Requests',
    scripts: [`${CONSOLE_PREFIX}/assets/requests.js`],
    body: `${intro}
<p id="live-note" class="meta" role="status">${lines.length === 1 ? 'The newest matching request' : `The newest ${lines.length} matching requests`} of the last ${RING_SIZE} kept in memory. Refresh the page to see newer ones.</p>
<div id="live" class="table-wrap" role="region" aria-label="Requests, newest first" tabindex="0" data-tail="${escapeMarkup(tail)}" data-state="static"><table>
<thead><tr>${HEAD.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
<tbody id="live-rows">${lines.map(row).join('\n')}</tbody>
</table></div>
${lines.length ? '' : '<p id="live-empty" class="placeholder">No matching requests yet.</p>'}`,
  };
}

export const requestsPage: ConsolePage = { slug: 'requests', label: 'Requests', get: { '': list } };
