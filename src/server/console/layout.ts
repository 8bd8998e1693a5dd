import { escapeMarkup } from '../text/escape-markup.js';
import type { UserRow } from '../store/users.repo.js';

export const CONSOLE_PREFIX = '/console';

export interface NavItem {
  slug: string;
  label: string;
}

/** The hidden field that carries a form's synchronizer token. */
export const csrfField = (token: string) => `<input type="hidden" name="csrf" value="${escapeMarkup(token)}">`;

function document(title: string, body: string, scripts: string[] = []): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeMarkup(title)} · facet console</title>
<link rel="stylesheet" href="${CONSOLE_PREFIX}/console.css">
${scripts.map((src) => `<script src="${escapeMarkup(src)}" defer></script>\n`).join('')}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${body}
</body>
</html>
`;
}

/** A signed-in page: the header with who is signed in and the sign-out form, the navigation, the content. */
export function consoleShell(input: {
  title: string;
  body: string;
  scripts?: string[];
  user: UserRow;
  csrf: string;
  nav: NavItem[];
  current: string;
}): string {
  const links = input.nav
    .map(
      (n) =>
        `<li><a href="${CONSOLE_PREFIX}/${escapeMarkup(n.slug)}"${n.slug === input.current ? ' aria-current="page"' : ''}>${escapeMarkup(n.label)}</a></li>`,
    )
    .join('');
  return document(
    input.title,
    `<header class="top">
<a class="brand" href="${CONSOLE_PREFIX}">facet console</a>
<span class="who">Signed in as <strong>${escapeMarkup(input.user.name)}</strong> (${escapeMarkup(input.user.role)})</span>
<form class="inline" method="post" action="${CONSOLE_PREFIX}/logout">${csrfField(input.csrf)}<button type="submit" class="secondary">Sign out</button></form>
</header>
<nav class="pages" aria-label="Console pages"><ul>${links}</ul></nav>
<main id="main" tabindex="-1">
${input.body}
</main>`,
    input.scripts,
  );
}

/** A page outside a session: sign-in, and refusals shown before one exists. */
export function bareShell(title: string, body: string): string {
  return document(
    title,
    `<header class="top"><span class="brand">facet console</span></header>\n<main id="main" tabindex="-1">\n${body}\n</main>`,
  );
}

export function signInPage(message?: { text: string; error: boolean }): string {
  const note = message
    ? `<div class="card ${message.error ? 'error' : 'notice'}" role="${message.error ? 'alert' : 'status'}"><p>${escapeMarkup(message.text)}</p></div>`
    : '';
  return bareShell(
    'Sign in',
    `<div class="signin">
<h1>Sign in</h1>
<p class="sub">Paste an API key of this server, or its admin key (<code>facet serve</code> printed both; they are in bootstrap.json too).</p>
${note}
<form method="post" action="${CONSOLE_PREFIX}/login" class="card">
<label for="key">API key or admin key</label>
<input id="key" name="key" type="password" autocomplete="off" required maxlength="512" spellcheck="false">
<p><button type="submit">Sign in</button></p>
</form>
</div>`,
  );
}

export function errorBody(status: number, message: string): string {
  const title = status === 403 || status === 421 ? 'Refused' : status === 404 ? 'Not found' : 'Error';
  const sentence = message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? '' : '.');
  return `<div class="card error" role="alert"><h1>${escapeMarkup(title)}</h1><p>${escapeMarkup(sentence)}</p><p><a href="${CONSOLE_PREFIX}">Back to the console</a></p></div>`;
}
