/**
 * The page's one stylesheet, inlined in <style>. Palettes are pairs whose text contrast passes
 * WCAG AA: white on `deep` and `accent` (hero, buttons), `accent` and `ink` on white and on `soft`.
 * System font stacks only: no web font is downloaded.
 */
export interface Palette {
  name: string;
  accent: string;
  deep: string;
  soft: string;
}

export const PALETTES: readonly Palette[] = [
  { name: 'indigo', accent: '#4338ca', deep: '#1e1b4b', soft: '#eef2ff' },
  { name: 'teal', accent: '#0f766e', deep: '#042f2e', soft: '#f0fdfa' },
  { name: 'rose', accent: '#be123c', deep: '#4c0519', soft: '#fff1f2' },
  { name: 'amber', accent: '#b45309', deep: '#451a03', soft: '#fffbeb' },
  { name: 'blue', accent: '#1d4ed8', deep: '#172554', soft: '#eff6ff' },
  { name: 'violet', accent: '#6d28d9', deep: '#2e1065', soft: '#f5f3ff' },
];

export function stylesheet(p: Palette): string {
  return `:root{--accent:${p.accent};--deep:${p.deep};--soft:${p.soft};--ink:#111827;--muted:#4b5563;--line:#e5e7eb;--radius:14px}
*{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Liberation Sans","DejaVu Sans",sans-serif;color:var(--ink);background:#fff;line-height:1.6;font-size:1.0625rem;-webkit-text-size-adjust:100%}
.wrap{max-width:1120px;margin:0 auto;padding:0 1.5rem}
.narrow{max-width:760px}
p,li,summary,h2,h3,.label{overflow-wrap:anywhere}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.92em;background:var(--soft);padding:0 .25em;border-radius:4px;overflow-wrap:anywhere;word-break:break-word}
a{color:var(--accent)}
a:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px;border-radius:4px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;color:var(--ink);padding:.5rem 1rem;z-index:10}
.skip:focus{left:1rem;top:1rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.hero{position:relative;overflow:hidden;color:#fff;background:linear-gradient(135deg,var(--deep) 0%,var(--accent) 100%);padding:clamp(3.5rem,9vw,7rem) 0 clamp(3rem,7vw,5.5rem)}
.hero .wrap{position:relative;z-index:1}
.hero-art{position:absolute;right:-6%;top:50%;transform:translateY(-50%);width:min(52vw,560px);height:auto;opacity:.9}
.eyebrow{display:inline-block;margin:0 0 1rem;padding:.3rem .8rem;border:1px solid rgba(255,255,255,.45);border-radius:999px;font-size:.85rem;letter-spacing:.02em;background:rgba(0,0,0,.18)}
.hero h1{margin:0;max-width:20ch;font-size:clamp(2.1rem,5.2vw,3.6rem);line-height:1.1;letter-spacing:-.02em;overflow-wrap:anywhere}
.tagline{max-width:58ch;margin:1.25rem 0 0;font-size:clamp(1.05rem,2.1vw,1.3rem);color:#f3f4f6}
.hero code{color:#fff;background:rgba(0,0,0,.22)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:2rem 0 0;padding:0;list-style:none}
.button{display:inline-block;padding:.75rem 1.3rem;border-radius:999px;font-weight:600;text-decoration:none;background:#fff;color:var(--deep)}
.button.ghost{background:transparent;color:#fff;border:2px solid rgba(255,255,255,.8)}
.button:hover{filter:brightness(.95)}
.numbers{background:var(--soft);border-bottom:1px solid var(--line);padding:0}
.numbers ul{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(150px,40vw),1fr));gap:1rem;margin:0;padding:2rem 0;list-style:none}
.numbers li{background:#fff;border:1px solid var(--line);border-radius:var(--radius);padding:1.1rem 1.25rem}
.numbers .value{display:block;font-size:clamp(1.45rem,3.2vw,2.1rem);font-weight:800;color:var(--accent);line-height:1.15;overflow-wrap:anywhere}
.numbers .label{display:block;color:var(--muted);font-size:.95rem;margin-top:.3rem}
section{padding:clamp(2.5rem,6vw,4.5rem) 0}
h2{font-size:clamp(1.6rem,3.4vw,2.2rem);line-height:1.2;margin:0 0 1.25rem;letter-spacing:-.01em}
.lead{font-size:1.15rem;color:#1f2937}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:1.25rem}
.card{border:1px solid var(--line);border-radius:var(--radius);padding:1.5rem;background:#fff;box-shadow:0 1px 2px rgba(17,24,39,.04),0 8px 24px rgba(17,24,39,.05)}
.card h3{margin:.9rem 0 .5rem;font-size:1.2rem;line-height:1.3}
.card p{margin:.5rem 0 0;color:#374151}
.card ul.points{margin:.6rem 0 0;padding-left:1.2rem;color:#374151}.card ul.points li{margin:.25rem 0}
.grid .card.wide{grid-column:1/-1}
.table-wrap{overflow-x:auto;margin:.8rem 0 0}.table-wrap table{border-collapse:collapse;width:100%;font-size:.9rem}
.table-wrap th,.table-wrap td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
.table-wrap th{color:var(--ink)}.table-wrap .table-source{font-size:.8rem;color:var(--muted);margin:.3rem 0 0}
.badge{display:inline-flex;align-items:center;justify-content:center;width:2.75rem;height:2.75rem;border-radius:12px;background:var(--soft);color:var(--accent)}
.alt{background:#f9fafb;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}
details{border:1px solid var(--line);border-radius:12px;background:#fff;padding:0 1.2rem;margin:0 0 .75rem}
summary{cursor:pointer;font-weight:650;padding:1rem 0}
details p{margin:0 0 1rem;color:#374151}
.sources ol{margin:0;padding-left:1.4rem}
.sources li{margin:.5rem 0}
.src-title{font-weight:600}
.src-link{display:block;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
sup{line-height:0}
.cite{font-size:.72rem;font-weight:700;text-decoration:none;padding:0 .15rem}
.hero .cite{color:#fff}
footer{background:var(--deep);color:#e5e7eb;padding:2rem 0;font-size:.9rem}
footer p{margin:0}
footer code{color:#fff;background:none}
@media (max-width:720px){.numbers ul{grid-template-columns:1fr 1fr;gap:.75rem;padding:1.5rem 0}.numbers li{padding:.9rem 1rem}.hero-art{opacity:.28;right:-30%;width:110vw}.hero h1{max-width:none}}
@media (prefers-reduced-motion:reduce){html{scroll-behavior:auto}}
@media print{.hero{background:#fff;color:var(--ink)}.hero-art,.actions,.skip{display:none}}`;
}
