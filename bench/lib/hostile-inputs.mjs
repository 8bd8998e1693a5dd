// Hostile documents, built in code: deep or wide HTML, zip bombs, oversized PDFs. Shared by the
// tests (test/helpers/bombs.ts) and bench/event-loop, which sends them while it measures.
import { deflateSync } from 'node:zlib';
import yazl from 'yazl';

export const nestedDivs = (depth) =>
  `<html><body>${'<div>x '.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`;

/** Inline tags opened and never closed: each nests inside the one before. */
export const unclosedInline = (count) => `<html><body><p>${'<b><i>'.repeat(count / 2)}text</p></body></html>`;

/** A flat page of paragraphs with links, `bytes` long (about). */
export function flatPage(bytes) {
  const para = '<p>Some words of text in a paragraph, with <a href="/x">a link</a> and <b>bold</b>.</p>\n';
  return `<html><head><title>Flat</title></head><body>${para.repeat(Math.ceil(bytes / para.length))}</body></html>`;
}

/** A ZIP of the given entries, deflated by yazl (empty ones stored: there is nothing to deflate). */
export function zipOf(entries) {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress: data.length > 0 });
  zip.end();
  const parts = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (b) => parts.push(b));
    zip.outputStream.on('end', () => resolve(Buffer.concat(parts)));
    zip.outputStream.on('error', reject);
  });
}

/** The same archive with every central-directory entry claiming `size` uncompressed bytes (a lying header). */
export function lyingSizes(zip, size) {
  const out = Buffer.from(zip);
  for (
    let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    at >= 0;
    at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
  )
    out.writeUInt32LE(size, at + 24);
  return out;
}

const DOCX_PARTS = {
  '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
};

/** A DOCX whose body is `paragraph` repeated `count` times. */
export function docxOf(paragraph, count) {
  const body = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraph.repeat(count)}</w:body></w:document>`,
  );
  return zipOf({ ...DOCX_PARTS, 'word/document.xml': body });
}

/** A DOCX whose document part is `bytes` of spaces: a zip bomb with honest sizes. */
export const docxBomb = (bytes) => zipOf({ ...DOCX_PARTS, 'word/document.xml': Buffer.alloc(bytes, 0x20) });

/** A PowerPoint template whose theme part is `bytes` of spaces. */
export const themeBomb = (bytes) =>
  zipOf({
    '[Content_Types].xml': DOCX_PARTS['[Content_Types].xml'],
    'ppt/theme/theme1.xml': Buffer.alloc(bytes, 0x20),
  });

/** A PDF from its objects (1-based), with a correct xref table. */
function pdfOf(objects) {
  const chunks = [Buffer.from('%PDF-1.4\n')];
  let length = chunks[0].length;
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    chunks.push(obj);
    length += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  chunks.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return Buffer.concat(chunks);
}

/** A PDF whose page tree holds `pages` pages (one page object, listed that many times). */
export function manyPagePdf(pages) {
  const content = 'BT /F1 12 Tf 72 720 Td (a page) Tj ET';
  return pdfOf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${'3 0 R '.repeat(pages)}] /Count ${pages} >>`),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    ),
    Buffer.from(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ]);
}

/** A one-page PDF whose content stream inflates to `bytes` bytes of spaces (a Flate bomb). */
export function flateBombPdf(bytes) {
  const stream = deflateSync(Buffer.alloc(bytes, 0x20), { level: 9 });
  return pdfOf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
  ]);
}
