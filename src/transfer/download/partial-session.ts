import { chmod, constants, copyFile, open, rename } from 'node:fs/promises';
import {
  clearSlot,
  dropSidecar,
  mergeRanges,
  releaseSlot,
  saveSidecar,
  type ByteRanges,
  type PartialRecord,
  type PartialSlot,
} from './partial-store.js';
import { ownedTempPath } from '../../core/atomic-files.js';
import type { DiskPlan } from './transfer-context.js';

// How many new bytes on disk before the sidecar is written again: what a kill can cost at most.
const SAVE_EVERY_BYTES = 2 * 1024 * 1024;

/**
 * A download writing into a partial slot: keeps its sidecar in step with what is on disk (one
 * save at a time, every few MiB and at every change of plan), and at the end hands the bytes
 * over as a temp file in the destination or keeps them for the next run.
 */
export class PartialSession {
  private plan: DiskPlan | undefined;
  private savedAt = 0;
  private saving: Promise<void> | undefined;
  private dirty = false;

  constructor(
    private readonly slot: PartialSlot,
    private readonly url: string,
  ) {}

  /** What the previous run left, if anything. */
  get previous(): PartialRecord | undefined {
    return this.slot.record;
  }

  /** The bytes on disk changed shape (fresh start, restart, segmented plan). */
  planned(plan: DiskPlan): void {
    this.plan = plan;
    this.savedAt = 0;
    this.save();
  }

  /** Bytes on disk so far: saves the sidecar once enough new bytes arrived. */
  progressed(received: number): void {
    if (Math.abs(received - this.savedAt) >= SAVE_EVERY_BYTES) this.save();
  }

  /** The previous run's bytes are worthless (another version): forget them before writing. */
  async discardPrevious(): Promise<void> {
    if (!this.slot.record) return;
    this.slot.record = undefined;
    await dropSidecar(this.slot);
    await this.slot.handle.truncate(0);
  }

  /** The download failed or was stopped: record what is on disk and leave it for the next run. */
  async keep(): Promise<void> {
    this.save();
    await this.settle();
    await releaseSlot(this.slot).catch(() => undefined);
  }

  /** The download succeeded: moves the (closed, fsynced) bytes into `destDir` and clears the slot. */
  async handOver(destDir: string, prefix: string): Promise<string> {
    await this.settle();
    const path = await ownedTempPath(destDir, prefix, 'part');
    try {
      await rename(this.slot.dataPath, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(this.slot.dataPath, path, constants.COPYFILE_EXCL);
      const fh = await open(path, 'r+');
      await fh.sync().finally(() => fh.close());
    }
    await chmod(path, 0o644);
    await clearSlot(this.slot);
    return path;
  }

  private save(): void {
    if (this.saving) {
      this.dirty = true;
      return;
    }
    const record = this.record();
    if (!record) return;
    this.savedAt = record.ranges.reduce((n, [a, b]) => n + (b - a), 0);
    this.saving = saveSidecar(this.slot, record)
      .catch(() => undefined)
      .finally(() => {
        this.saving = undefined;
        if (this.dirty) {
          this.dirty = false;
          this.save();
        }
      });
  }

  private async settle(): Promise<void> {
    while (this.saving) await this.saving;
  }

  // Only a version we can name (validator and size) can be resumed.
  private record(): PartialRecord | undefined {
    const plan = this.plan;
    if (!plan?.validator || plan.size === undefined) return undefined;
    const ranges: ByteRanges = mergeRanges(plan.ranges());
    return { url: this.url, validator: plan.validator, size: plan.size, ranges };
  }
}
