/**
 * An answer already serialized to JSON (a cached list page): the route layer sends it as the body,
 * in the surface's envelope, instead of serializing an object again. The enveloped bytes are made
 * once per answer, so a cached answer is sent with no work but the write.
 */
export class JsonText {
  private enveloped?: Buffer;
  private bare?: Buffer;

  constructor(readonly text: string) {}

  /** The body to send: the text itself, or the v2 envelope around it. */
  body(envelope: boolean): Buffer {
    if (envelope) return (this.enveloped ??= Buffer.from(`{"status":"ok","message":null,"data":${this.text}}`));
    return (this.bare ??= Buffer.from(this.text));
  }
}
