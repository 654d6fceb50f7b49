/**
 * Lines of a byte stream, split at `\n` as the chunks arrive, never the whole text at once: a
 * large answer costs its longest kept line, not its size. Each line keeps at most `maxBytes`; the
 * rest of a longer one is dropped as it streams past.
 */
export class LineSplitter {
  private head: Buffer;
  private used = 0;
  private cut = false;

  /** `onLine` gets each line's kept bytes (valid only during the call) and whether it was cut. */
  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: Buffer, cut: boolean) => void,
  ) {
    this.head = Buffer.allocUnsafe(Math.min(maxBytes, 4096));
  }

  /** Feeds the next chunk. */
  push(chunk: Buffer): void {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const to = nl < 0 ? chunk.length : nl;
      // A whole line inside the chunk needs no copy.
      if (nl >= 0 && this.used === 0 && !this.cut && to - from <= this.maxBytes)
        this.onLine(chunk.subarray(from, to), false);
      else {
        this.keep(chunk, from, to);
        if (nl >= 0) this.flush();
      }
      from = to + 1;
    }
  }

  /** Ends the stream: a last line without `\n` is a line too. */
  end(): void {
    if (this.used > 0 || this.cut) this.flush();
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    const room = this.maxBytes - this.used;
    const n = Math.min(room, to - from);
    if (n < to - from) this.cut = true;
    if (n <= 0) return;
    if (this.used + n > this.head.length) {
      const bigger = Buffer.allocUnsafe(
        Math.min(this.maxBytes, Math.max(this.head.length * 2, this.used + n)),
      );
      this.head.copy(bigger, 0, 0, this.used);
      this.head = bigger;
    }
    chunk.copy(this.head, this.used, from, from + n);
    this.used += n;
  }

  private flush(): void {
    this.onLine(this.head.subarray(0, this.used), this.cut);
    this.used = 0;
    this.cut = false;
  }
}
