/**
 * A deck's previews are drawn by a job after its task completes: the viewer says "being drawn"
 * until then. Reads the viewer (its signed URL) until they are drawn or none could be, bounded.
 */
export async function viewerOnceDrawn(viewerUrl: string, timeoutMs = 180_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const html = await (await fetch(viewerUrl)).text();
    if (!html.includes('previews are being drawn')) return html;
    if (Date.now() > until) throw new Error(`the deck's previews were still being drawn after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
