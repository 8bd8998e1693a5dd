import { escapeMarkup } from '../text/escape-markup.js';

export interface MindmapHtml {
  title: string;
  svg: string;
  layouts: Array<{ label: string; href: string; current: boolean }>;
  downloads: Array<{ label: string; href: string }>;
}

/**
 * The mindmap page: one self-contained HTML file (inline CSS, the SVG inline, no script and no
 * outside asset), with the six layouts and the downloads one click away.
 */
export function mindmapHtml(p: MindmapHtml): string {
  const tabs = p.layouts
    .map((l) =>
      l.current
        ? `<a class="tab current" aria-current="page" href="${escapeMarkup(l.href)}">${escapeMarkup(l.label)}</a>`
        : `<a class="tab" href="${escapeMarkup(l.href)}">${escapeMarkup(l.label)}</a>`,
    )
    .join('');
  const downloads = p.downloads
    .map((d) => `<a class="dl" href="${escapeMarkup(d.href)}">${escapeMarkup(d.label)}</a>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeMarkup(p.title)} · mindmap</title>
<style>
body{margin:0;font-family:'DejaVu Sans',system-ui,sans-serif;background:#F3F5F8;color:#1F2933}
header{display:flex;flex-wrap:wrap;align-items:center;gap:12px;padding:14px 20px;background:#fff;border-bottom:1px solid #D9DEE5}
h1{font-size:18px;margin:0 16px 0 0}
nav{display:flex;flex-wrap:wrap;gap:6px}
.tab,.dl{padding:6px 12px;border-radius:6px;text-decoration:none;font-size:14px}
.tab{color:#263445;background:#EEF1F4}
.tab.current{color:#fff;background:#263445}
.dl{color:#3A6EA5;border:1px solid #3A6EA5}
.downloads{margin-left:auto;display:flex;gap:6px}
main{padding:20px;overflow:auto}
main svg{display:block;margin:0 auto;max-width:100%;height:auto;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.08)}
</style>
</head>
<body>
<header><h1>${escapeMarkup(p.title)}</h1><nav aria-label="Layouts">${tabs}</nav><div class="downloads">${downloads}</div></header>
<main>${p.svg}</main>
</body>
</html>
`;
}
