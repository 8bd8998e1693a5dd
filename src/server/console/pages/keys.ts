import { escapeMarkup } from '../../text/escape-markup.js';
import { HttpError, notFound } from '../../errors.js';
import type { ConsolePage, PageInput } from '../page.js';
import { CONSOLE_PREFIX, csrfField } from '../layout.js';
import {
  allowedActions,
  applyKeyAction,
  keyFor,
  visibleKeys,
  type KeyAction,
} from '../../services/console/overview.service.js';
import { table, when } from './parts.js';

const ACTIONS: Record<KeyAction, { verb: string; done: string; warning: string; danger: boolean }> = {
  freeze: {
    verb: 'Freeze',
    done: 'frozen',
    warning: 'Every request made with it is refused (403 KEY_FROZEN) until it is unfrozen.',
    danger: true,
  },
  unfreeze: { verb: 'Unfreeze', done: 'unfrozen', warning: 'It works again on every surface.', danger: false },
  delete: {
    verb: 'Delete',
    done: 'deleted',
    warning: 'It stops working at once and for good (401 INVALID_API_KEY); this cannot be undone.',
    danger: true,
  },
};

const isAction = (a: string | undefined): a is KeyAction => a !== undefined && Object.hasOwn(ACTIONS, a);
const keyUrl = (id: string, action: KeyAction) => `${CONSOLE_PREFIX}/keys/${encodeURIComponent(id)}/${action}`;

async function list({ ctx, user, query }: PageInput) {
  const { keys, more } = await visibleKeys(ctx, user);
  const admin = user.role === 'admin';
  const done = query.done && /^(frozen|unfrozen|deleted):[\w-]{1,100}$/.test(query.done) ? query.done.split(':') : null;
  const notice = done
    ? `<div class="card notice" role="status"><p>Key <code>${escapeMarkup(done[1])}</code> ${escapeMarkup(done[0])}.</p></div>`
    : '';
  // Name, status and actions lead: on a phone the table scrolls, and these stay in view.
  const rows = keys.map((k) => [
    escapeMarkup(k.name),
    `<span class="status status-${escapeMarkup(k.status)}">${escapeMarkup(k.status)}</span>`,
    `<div class="actions">${allowedActions(user, k)
      .map(
        (a) =>
          `<a class="button${ACTIONS[a].danger ? ' danger' : ' secondary'}" href="${keyUrl(k.id, a)}" aria-label="${escapeMarkup(`${ACTIONS[a].verb} key ${k.name} (${k.prefix}…)`)}">${ACTIONS[a].verb}</a>`,
      )
      .join('')}</div>`,
    `<code>${escapeMarkup(k.prefix)}…</code>`,
    ...(admin ? [`<code>${escapeMarkup(k.user_id)}</code>`] : []),
    when(k.created_at),
    when(k.last_used_at),
    when(k.expires_at),
  ]);
  const head = ['Name', 'Status', 'Actions', 'Prefix', ...(admin ? ['User'] : []), 'Created', 'Last used', 'Expires'];
  return {
    title: 'API keys',
    body: `<h1>API keys</h1>
<p class="sub">${admin ? 'Every user’s keys (you are an administrator).' : 'Your keys.'} Secrets are never shown again after a key is made.</p>
${notice}
${table('API keys', head, rows, 'No keys.')}
${more ? '<p class="meta">More keys than shown here: <code>facet admin keys list</code> pages through all of them.</p>' : ''}`,
  };
}

/** The confirmation step: a page that says what will happen, with the one form that does it. */
async function confirm({ ctx, user, params, csrf }: PageInput) {
  const action = params.action;
  if (!isAction(action)) throw notFound(`console action ${action}`);
  const key = await keyFor(ctx, user, params.id);
  if (!key) throw notFound(`API key ${params.id}`);
  if (!allowedActions(user, key).includes(action))
    throw new HttpError('FORBIDDEN', `you may not ${action} this key`, { status: 403 });
  const a = ACTIONS[action];
  return {
    title: `${a.verb} key`,
    body: `<h1>${a.verb} key ${escapeMarkup(key.name)}?</h1>
<div class="card">
<p>Key <strong>${escapeMarkup(key.name)}</strong> (<code>${escapeMarkup(key.prefix)}…</code>, id <code>${escapeMarkup(key.id)}</code>, user <code>${escapeMarkup(key.user_id)}</code>) is now <strong>${escapeMarkup(key.status)}</strong>.</p>
<p>${escapeMarkup(a.warning)}</p>
<form method="post" action="${keyUrl(key.id, action)}" class="actions">
${csrfField(csrf)}
<button type="submit" class="${a.danger ? 'danger' : ''}">${a.verb} this key</button>
<a class="button secondary" href="${CONSOLE_PREFIX}/keys">Cancel</a>
</form>
</div>`,
  };
}

async function apply({ ctx, user, params, actor }: PageInput) {
  const action = params.action;
  if (!isAction(action)) throw notFound(`console action ${action}`);
  await applyKeyAction(ctx, user, params.id, action, actor);
  return { redirect: `${CONSOLE_PREFIX}/keys?done=${ACTIONS[action].done}:${encodeURIComponent(params.id)}` };
}

export const keysPage: ConsolePage = {
  slug: 'keys',
  label: 'Keys',
  get: { '': list, '/:id/:action': confirm },
  post: { '/:id/:action': apply },
};
