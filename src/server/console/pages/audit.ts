import { escapeMarkup } from '../../text/escape-markup.js';
import type { AuditEntry } from '../../../contract/audit.js';
import type { ConsolePage, PageInput } from '../page.js';
import { CONSOLE_PREFIX } from '../layout.js';
import { AUDIT_FIELDS, consoleAudit } from '../../services/console/activity.service.js';

/** The actions the trail records (contract/audit.ts), offered as suggestions in the action filter. */
const KNOWN_ACTIONS = [
  'key.*',
  'key.created',
  'key.frozen',
  'key.unfrozen',
  'key.deleted',
  'key.expired',
  'user.*',
  'user.created',
  'user.credits_changed',
  'user.plan_changed',
  'admin_key.used',
  'token.issued',
  'session.login',
  'livedoc.shared',
  'livedoc.unshared',
  'model.hidden',
  'model.shown',
  'theme.imported',
  'theme.deleted',
];

const code = (v: string | null | undefined) => (v ? `<code>${escapeMarkup(v)}</code>` : '—');
const fullTime = (iso: string) =>
  `<time datetime="${escapeMarkup(iso)}">${escapeMarkup(iso.slice(0, 19).replace('T', ' '))} UTC</time>`;

function actorText(a: AuditEntry['actor']): string {
  if (a.kind === 'local-admin') return 'local administrator (an offline <code>facet serve</code> command)';
  if (a.kind === 'system') return 'the server itself';
  const how = { key: 'API key', token: 'access token', cookie: 'console session' }[a.kind];
  return `user ${code(a.user_id)} with ${how}${a.credential_id ? ` ${code(a.credential_id)}` : ''}`;
}

const shown = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Before and after, field by field: a changed value is struck out and the new one marked. */
function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (fields.length === 0) return '<p class="meta">No fields changed.</p>';
  const rows = fields.map((k) => {
    const b = before?.[k];
    const a = after?.[k];
    const changed = JSON.stringify(b) !== JSON.stringify(a);
    const side = (v: unknown, tag: 'del' | 'ins') =>
      v === undefined
        ? '<span class="meta">—</span>'
        : v === null
          ? '<span class="meta">none</span>'
          : changed
            ? `<${tag}>${escapeMarkup(shown(v))}</${tag}>`
            : escapeMarkup(shown(v));
    return `<tr${changed ? ' class="changed"' : ''}><th scope="row">${escapeMarkup(k)}</th><td class="wrap">${side(b, 'del')}</td><td class="wrap">${side(a, 'ins')}</td></tr>`;
  });
  return `<div class="table-wrap"><table class="diff"><thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function entry(e: AuditEntry): string {
  return `<li class="card entry">
<p class="entry-head"><strong class="action">${escapeMarkup(e.action)}</strong> <span>${escapeMarkup(e.target.type)} ${code(e.target.id)}</span> <span class="meta">${fullTime(e.time)}</span></p>
<dl class="facts">
<div><dt>Actor</dt><dd>${actorText(e.actor)}</dd></div>
${e.subject_user_id && e.subject_user_id !== e.actor.user_id ? `<div><dt>About user</dt><dd>${code(e.subject_user_id)}</dd></div>` : ''}
<div><dt>Request id</dt><dd>${code(e.request_id)}</dd></div>
<div><dt>Client address</dt><dd>${code(e.client.ip)}</dd></div>
<div><dt>User agent</dt><dd class="wrap">${e.client.user_agent ? escapeMarkup(e.client.user_agent) : '—'}</dd></div>
</dl>
${diff(e.before, e.after)}
</li>`;
}

const field = (name: string, label: string, value: string | undefined, attrs: string, wide = false) =>
  `<div${wide ? ' class="wide"' : ''}><label for="f-${name}">${escapeMarkup(label)}</label><input id="f-${name}" name="${name}" value="${escapeMarkup(value ?? '')}" ${attrs}></div>`;

/** A datetime-local field shows only what it can parse: a full ISO time from a link stays in a text field. */
const timeField = (name: string, label: string, value: string | undefined) =>
  field(
    name,
    label,
    value,
    !value || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)
      ? 'type="datetime-local" step="1"'
      : 'type="text" spellcheck="false"',
    true,
  );

async function list({ ctx, user, query }: PageInput) {
  const checked = await consoleAudit(ctx, user, query);
  const f = checked.filters;
  const admin = user.role === 'admin';
  const form = `<form method="get" action="${CONSOLE_PREFIX}/audit" class="card filters" aria-label="Filter the audit trail">
${field('actor', 'Actor', f.actor, 'type="text" maxlength="100" spellcheck="false" placeholder="user or key id"')}
${field('action', 'Action', f.action, 'type="text" maxlength="61" spellcheck="false" placeholder="key.*" list="known-actions"')}
<datalist id="known-actions">${KNOWN_ACTIONS.map((a) => `<option value="${a}"></option>`).join('')}</datalist>
${field('target', 'Target id', f.target, 'type="text" maxlength="100" spellcheck="false" placeholder="a key or user id"')}
${timeField('since', 'Since (UTC)', f.since)}
${timeField('until', 'Until (UTC)', f.until)}
<div class="filter-actions"><button type="submit">Apply</button> <a class="button secondary" href="${CONSOLE_PREFIX}/audit">Clear</a></div>
</form>`;
  const intro = `<h1>Audit trail</h1>
<p class="sub">${admin ? 'Every change to keys, users and settings (you are an administrator).' : 'What you did, and what was done to your keys and account.'} Newest first; entries are never changed or deleted.</p>
${form}`;
  if (!checked.ok) {
    return {
      title: 'Audit trail',
      status: 400,
      body: `${intro}\n<div class="card error" role="alert"><p>${escapeMarkup(`These filters are not valid: ${checked.message}.`)}</p></div>`,
    };
  }
  const { entries, nextCursor } = checked.value;
  const first = new URLSearchParams(Object.entries(f).filter(([k]) => (AUDIT_FIELDS as readonly string[]).includes(k)));
  const next = new URLSearchParams(first);
  if (nextCursor) next.set('cursor', nextCursor);
  const firstUrl = `${CONSOLE_PREFIX}/audit${first.size ? `?${first}` : ''}`;
  return {
    title: 'Audit trail',
    body: `${intro}
${entries.length ? `<ol class="entries" aria-label="Audit entries">${entries.map(entry).join('\n')}</ol>` : '<p class="placeholder">No entries match.</p>'}
<p class="pager">${f.cursor ? `<a class="button secondary" href="${escapeMarkup(firstUrl)}">← Newest entries</a>` : ''}${nextCursor ? ` <a class="button secondary" rel="next" href="${CONSOLE_PREFIX}/audit?${escapeMarkup(next.toString())}">Older entries →</a>` : ''}</p>`,
  };
}

export const auditPage: ConsolePage = { slug: 'audit', label: 'Audit', get: { '': list } };
