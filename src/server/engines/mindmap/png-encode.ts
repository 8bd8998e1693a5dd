import zlib from 'node:zlib';

/**
 * A PNG written band by band: each band's rows (a filter byte, 0 = none, then RGBA pixels) go into
 * one deflate stream that compresses on libuv's thread pool while the caller draws the next band,
 * so deflating a big map overlaps rasterising it instead of following it. A map is large flat
 * areas and thin lines, which deflate well without row filters.
 */
export class PngWriter {
  // Output room for a whole band in one pass: each pass is a thread-pool job that needs the event
  // loop to start the next, and the drawing thread only yields between bands.
  private readonly deflate = zlib.createDeflate({ level: 3, chunkSize: 1 << 20 });
  private readonly parts: Buffer[] = [];
  private readonly done: Promise<void>;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.deflate.on('data', (b: Buffer) => this.parts.push(b));
    this.done = new Promise((resolve, reject) => {
      this.deflate.on('end', resolve);
      this.deflate.on('error', reject);
    });
  }

  /**
   * Two row buffers, used in turn: one band's rows are being compressed while the next band's are
   * filled (the caller awaits a band's compression before writing the next). They come from a
   * free list kept by the thread and go back to it when the picture is finished, because a fresh
   * buffer per band cost more in page faults than the copy itself; two pictures drawn at once each
   * get their own.
   */
  private readonly buffers: Buffer[] = [];
  private turn = 0;
  private static free: Buffer[] = [];

  /** A band's RGBA pixels as PNG rows (a filter byte, 0 = none, before each row), in one of this writer's buffers. */
  rowsOf(rgba: Uint8Array, rows: number): Buffer {
    const stride = this.width * 4;
    const size = (stride + 1) * rows;
    const i = (this.turn = (this.turn + 1) % 2);
    let buffer = this.buffers[i];
    if (!buffer || buffer.length < size) {
      const reused = PngWriter.free.findIndex((b) => b.length >= size && b.length <= 4 * size);
      buffer = this.buffers[i] = reused >= 0 ? PngWriter.free.splice(reused, 1)[0] : Buffer.allocUnsafeSlow(size);
    }
    const raw = buffer.subarray(0, size);
    const src = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
    for (let y = 0; y < rows; y++) {
      const at = y * (stride + 1);
      raw[at] = 0;
      src.copy(raw, at + 1, y * stride, (y + 1) * stride);
    }
    return raw;
  }

  /**
   * Hands a band's rows to the compressor, which works on them in the thread pool; resolves once
   * they are compressed. Draw the next band before awaiting it, so the two overlap, and await it
   * before writing another (rowsOf reuses the buffer of the band before last).
   */
  write(rows: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.deflate.write(rows, (error) => (error ? reject(error) : resolve())));
  }

  async finish(): Promise<Buffer> {
    this.deflate.end();
    await this.done;
    // Keep a few buffers for the next picture of this thread, not an unbounded pile.
    PngWriter.free.push(...this.buffers.splice(0).filter((b) => b !== undefined));
    PngWriter.free.splice(0, Math.max(0, PngWriter.free.length - 4));
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bits per channel
    header[9] = 6; // RGBA
    return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', Buffer.concat(this.parts)), chunk('IEND', Buffer.alloc(0))]);
  }
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
