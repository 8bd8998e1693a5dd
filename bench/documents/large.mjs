// bench/documents/large.mjs: large ordinary documents indexed through the real API (issue 46): a
// Markdown of headings, paragraphs and links and a text of Chinese without punctuation, each
// uploaded with upload-doc (which answers once the document is chunked and indexed), against a
// 50 KB Markdown baseline in the same run. BENCH_MD_MB and BENCH_CJK_MB set the sizes (5 and 3).
// Needs `npm run build`.
import { startPlatform } from '../lib/platform.mjs';

const mdChars = Number(process.env.BENCH_MD_MB ?? 5) * 1_000_000 - 20_000;
const cjkChars = Number(process.env.BENCH_CJK_MB ?? 3) * 1_000_000;

function markdown(chars) {
  const out = [];
  for (let i = 0, n = 0; n < chars; i++) {
    const s =
      i % 20 === 0
        ? `## Section ${i}\n\nIntro to section ${i} with a [link](https://example.com/${i}) and more words.\n`
        : `Paragraph ${i} is about harbour ${i % 97} and the [docs page](https://example.org/p/${i}). ` +
          `Its second sentence mentions kettles ${i % 13}.\n`;
    out.push(s);
    n += s.length + 1;
  }
  return out.join('\n');
}

function chinese(chars) {
  const base =
    '退货政策说明了如何退货我们的产品在三十天内可以退回商店并且需要保留收据和原包装顾客服务中心会处理所有的请求';
  return base.repeat(Math.ceil(chars / base.length)).slice(0, chars);
}

export async function run() {
  const server = await startPlatform();
  try {
    const headers = { authorization: `Bearer ${server.key}` };
    const created = await fetch(`${server.url}/v2/livedocs`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'large documents' }),
    });
    const ld = (await created.json()).data.short_id;
    const upload = async (name, text) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/markdown' }), name);
      const t = performance.now();
      const res = await fetch(`${server.url}/v2/livedocs/${ld}/resources/upload-doc`, {
        method: 'POST',
        headers,
        body: form,
      });
      const body = await res.text();
      const s = (performance.now() - t) / 1000;
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.slice(0, 300)}`);
      return s;
    };
    const base = await upload('baseline.md', markdown(50_000));
    const md = await upload('large.md', markdown(mdChars));
    const cjk = await upload('chinese.md', chinese(cjkChars));
    const row = (label, chars, s) =>
      console.log(
        `${label.padEnd(34)} ${(chars / 1e6).toFixed(2).padStart(5)} M chars ${s.toFixed(1).padStart(6)} s  ${(s / base).toFixed(0).padStart(4)}x baseline`,
      );
    row('baseline Markdown (50 KB)', 50_000, base);
    row('Markdown: headings, paragraphs, links', mdChars, md);
    row('Chinese without punctuation', cjkChars, cjk);
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
