import type { FileHandle } from 'node:fs/promises';

/** At most this many buffers in one vectored write. */
const MAX_BUFFERS = 512;

/**
 * Verified pieces waiting to be written at their offsets; pieces that continue the previous one
 * are merged into a single vectored write.
 */
export class WriteQueue {
  private groups: { position: number; end: number; buffers: Buffer[] }[] = [];
  private queued = 0;

  constructor(private readonly out: FileHandle) {}

  /** Bytes queued and not yet written. */
  get bytes(): number {
    return this.queued;
  }

  /** Queues `data` for `position` (the buffer must stay untouched until flushed). */
  push(position: number, data: Buffer): void {
    this.queued += data.length;
    const last = this.groups[this.groups.length - 1];
    if (last && last.end === position && last.buffers.length < MAX_BUFFERS) {
      last.buffers.push(data);
      last.end += data.length;
    } else {
      this.groups.push({ position, end: position + data.length, buffers: [data] });
    }
  }

  /** Writes everything queued. */
  async flush(): Promise<void> {
    const groups = this.groups;
    this.groups = [];
    this.queued = 0;
    await Promise.all(groups.map((g) => this.out.writev(g.buffers, g.position)));
  }
}
