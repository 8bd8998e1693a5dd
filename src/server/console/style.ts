/**
 * The console's one stylesheet, served at /console/console.css (the page policy allows no inline
 * style). Colours meet WCAG AA contrast in both schemes; focus is always drawn.
 */
export const CONSOLE_CSS = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#4f5866;--bg:#f6f7f9;--card:#fff;--line:#cfd5de;--accent:#1f4fbf;--accent-fg:#fff;--danger:#a61b1b;--ok:#1d6b3a;--warn:#8a5300}
@media (prefers-color-scheme:dark){:root{--fg:#e8ebf1;--muted:#b3bbc8;--bg:#14171d;--card:#1d2129;--line:#3a4150;--accent:#9db9ff;--accent-fg:#0d1526;--danger:#ff9c9c;--ok:#8fe0a8;--warn:#ffcf7a}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 "DejaVu Sans",system-ui,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0}.skip:focus{left:8px;top:8px;background:var(--card);padding:8px;z-index:2}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 20px;background:var(--card);border-bottom:1px solid var(--line)}
header.top .brand{font-weight:700;font-size:1.1rem;margin-right:auto;color:var(--fg);text-decoration:none}
header.top .who{color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
nav.pages{background:var(--card);border-bottom:1px solid var(--line);padding:0 12px}
nav.pages ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:2px}
nav.pages a{display:block;padding:10px 12px;text-decoration:none;color:var(--fg);border-bottom:3px solid transparent}
nav.pages a[aria-current=page]{border-bottom-color:var(--accent);font-weight:700}
main{max-width:1180px;margin:0 auto;padding:24px 20px 64px}
h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.15rem;margin:24px 0 8px}
.sub,.meta{color:var(--muted)}.meta{font-size:.875rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:0 0 14px;min-width:0}
.card h2{margin-top:0}td .actions{flex-wrap:nowrap}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:14px}
.table-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:10px;background:var(--card)}
table{border-collapse:collapse;width:100%;font-size:.925rem}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top;white-space:nowrap}
td.wrap{white-space:normal;overflow-wrap:anywhere;min-width:12em}
th{font-weight:700;background:var(--bg)}
tr:last-child td,tr:last-child th{border-bottom:0}
.num{display:block;text-align:right;font-variant-numeric:tabular-nums}
.status{font-weight:700}.status-active,.status-succeeded,.status-COMPLETED{color:var(--ok)}
.status-frozen,.status-failed,.status-FAILED,.status-canceled{color:var(--danger)}.status-running,.status-queued,.status-PENDING{color:var(--warn)}
button,.button{font:inherit;display:inline-block;padding:6px 12px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none;min-height:36px}
.button.secondary,button.secondary{background:transparent;color:var(--accent)}
button.danger,.button.danger{background:var(--danger);border-color:var(--danger);color:var(--card)}
.actions{display:flex;flex-wrap:wrap;gap:6px}
form.inline{display:inline}
label{display:block;font-weight:700;margin:0 0 4px}
input[type=password],input[type=text]{font:inherit;width:100%;max-width:32em;padding:8px;border:1px solid var(--muted);border-radius:6px;background:var(--card);color:var(--fg)}
.signin{max-width:34em;margin:48px auto}
.error{border-left:4px solid var(--danger)}
.notice{border-left:4px solid var(--ok)}
.placeholder{color:var(--muted);font-style:italic}
figure{margin:0}figure img{display:block;max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
figcaption{font-size:.875rem;color:var(--muted);margin-top:4px;overflow-wrap:anywhere}
/* rtl: a narrow screen opens the chart scrolled to its newest days */
.chart-scroll{overflow-x:auto;direction:rtl}.chart-scroll svg{direction:ltr}.chart{width:100%;max-width:900px;height:auto;display:block;margin-right:auto}
@media (max-width:600px){.chart{min-width:560px}}
.chart .axis{stroke:var(--muted)}.chart text{fill:var(--fg);font-size:11px}
.legend{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-wrap:wrap;gap:4px 14px;font-size:.875rem}
.legend svg{vertical-align:-2px;margin-right:4px}
.totals{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0 16px}.totals .card{margin:0;flex:1 1 10em}
.totals strong{display:block;font-size:1.3rem}
pre.log{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:10px;overflow-x:auto;font-size:.85rem;max-height:24em}
form.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(9em,1fr));gap:10px 14px;align-items:end}
form.filters input,form.filters select{font:inherit;width:100%;padding:6px 8px;height:38px;border:1px solid var(--muted);border-radius:6px;background:var(--card);color:var(--fg)}
.filter-actions{display:flex;gap:6px;flex-wrap:wrap}form.filters .wide{grid-column:span 2}
ol.entries{list-style:none;margin:0;padding:0}
.entry-head{margin:0 0 8px;display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline}.entry-head .action{font-size:1.05rem}
dl.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(14em,1fr));gap:6px 16px;margin:0 0 10px}
dl.facts dt{font-size:.8rem;color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
table.diff{table-layout:fixed}table.diff thead th:first-child{width:40%}table.diff th,table.diff td{white-space:normal;overflow-wrap:anywhere}table.diff th[scope=row]{background:transparent;font-weight:400}table.diff td.wrap{min-width:0}
del{color:var(--danger)}ins{color:var(--ok);text-decoration:none;font-weight:700}
.pager{display:flex;gap:8px;flex-wrap:wrap}
.http{font-weight:700}.http-2xx{color:var(--ok)}.http-3xx{color:var(--muted)}.http-4xx{color:var(--warn)}.http-5xx{color:var(--danger)}
@media (max-width:600px){main{padding:16px 12px 48px}header.top{padding:8px 12px}nav.pages a{padding:8px}h1{font-size:1.3rem}}
`;
