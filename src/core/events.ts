/**
 * Progress events the core emits and the CLI renders. The core never prints; it calls `emit`.
 */

export type KeeperEvent =
  | { type: 'download:start'; app: string; url: string; total: number | undefined; segmented: boolean }
  | { type: 'download:progress'; app: string; received: number; total: number | undefined }
  | { type: 'download:end'; app: string; bytes: number }
  | { type: 'warning'; app?: string | undefined; code: string; message: string }
  | { type: 'info'; app?: string | undefined; message: string };

/** Receives events; the default sink drops them. */
export type EventSink = (event: KeeperEvent) => void;
