/**
 * The client the delta benchmarks time in a child process, bundled like the shipped CLI
 * (`bundleClient`): `node client.mjs <full|zsync|blockmap> <url> <seed> <dir>` prints one JSON line.
 * A module rather than a string of source, so the compiler checks its calls against the transfer
 * API (a string let `download()` go without the HTTP settings it requires).
 */
import { httpSettingsFor } from '../src/http/proxy-settings.js';
import { blockmapDownload } from '../src/transfer/blockmap/index.js';
import { download } from '../src/transfer/download/index.js';
import { zsyncDownload } from '../src/transfer/zsync/index.js';

/** What one transfer printed for the parent. */
export interface TransferReport {
  path: string;
  bytesFetched: number;
  bytesReused: number;
  /** The call alone, without the process start. */
  callMs: number;
}

/** The source `bundleClient` bundles: runs this module's client on the process arguments. */
export const TRANSFER_CLIENT = `
  import { runTransferClient } from './bench/transfer-client.ts';
  await runTransferClient(process.argv.slice(2));`;

/** Runs one transfer (`full`, `zsync` or `blockmap`) and writes its report to stdout. */
export async function runTransferClient([
  method,
  url = '',
  seedPath = '',
  destDir = '',
]: string[]): Promise<void> {
  // The environment's proxy variables, as a run reads them.
  const common = {
    http: httpSettingsFor(process.env),
    destDir,
    tempPrefix: '.bench-',
    stallTimeoutMs: 30_000,
  };
  const t0 = performance.now();
  let r: Omit<TransferReport, 'callMs'>;
  if (method === 'full') {
    const d = await download({ ...common, url, segmented: true, connections: 4 });
    r = { path: d.path, bytesFetched: d.size, bytesReused: 0 };
  } else if (method === 'zsync') {
    r = await zsyncDownload({ ...common, controlUrl: url, seedPath });
  } else if (method === 'blockmap') {
    r = await blockmapDownload({ ...common, url, seedPath });
  } else {
    throw new Error(`unknown method ${method ?? ''}: full, zsync or blockmap`);
  }
  const report: TransferReport = {
    path: r.path,
    bytesFetched: r.bytesFetched,
    bytesReused: r.bytesReused,
    callMs: performance.now() - t0,
  };
  process.stdout.write(JSON.stringify(report));
}
