import cliProgress from 'cli-progress';
import type { KeeperEvent } from '../core/events.js';
import type { Output } from './output.js';
import { formatBytes } from './table.js';
import { termText } from './terminal-text.js';

// Redraws per second: a bar moves at least every 125 ms while its bytes come in.
const FPS = 8;
const NAME_CELLS = 16;

/** One download (or the total of all): what is known, from which each redraw computes its text. */
interface Transfer {
  bar: cliProgress.SingleBar;
  started: number;
  total: number;
  received: number;
}

/**
 * Live download bars on stderr (one per active download, then the total of all below them), only
 * when stderr is a TTY and neither --json nor --quiet is set. Other events go to `fallback`.
 */
export function createProgressRenderer(
  out: Output,
  fallback: (e: KeeperEvent) => void,
): {
  onEvent: (e: KeeperEvent) => void;
  stop: () => void;
} {
  if (!out.live) {
    return {
      onEvent: (e) => (e.type.startsWith('download:') ? undefined : fallback(e)),
      stop: () => undefined,
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      stream: out.stderr,
      format: ' {name} |{bar}| {done} / {size}  {rate}  {remaining}',
      hideCursor: true,
      clearOnComplete: true,
      stopOnComplete: false,
      barsize: 24,
      fps: FPS,
    },
    cliProgress.Presets.shades_classic,
  );
  const transfers = new Map<string, Transfer>();
  // Downloads already ended, so the total does not fall back when a bar goes; an app's next
  // download (a full one after a failed delta) replaces its entry.
  const ended = new Map<string, { total: number; received: number }>();
  let total: Transfer | undefined;
  const pending: KeeperEvent[] = [];
  const started = Date.now();

  const newBar = (name: string, size: number): cliProgress.SingleBar =>
    multi.create(Math.max(size, 1), 0, {
      name: termText(name, NAME_CELLS).slice(0, NAME_CELLS).padEnd(NAME_CELLS),
    });

  // Rates and remaining times are computed at each redraw, not only when bytes arrive: a
  // download whose bytes stop coming shows its rate falling instead of a frozen figure.
  const show = (t: Transfer, now: number): void => {
    const secs = Math.max((now - t.started) / 1000, 0.001);
    const rate = t.received / secs;
    t.bar.setTotal(Math.max(t.total, 1));
    t.bar.update(t.received, {
      done: formatBytes(t.received, true),
      size: t.total ? formatBytes(t.total, true) : '?',
      rate: t.received > 0 ? `${formatBytes(Math.round(rate))}/s` : '',
      remaining:
        t.total && rate > 0 && t.received > 0 ? `eta ${formatSeconds((t.total - t.received) / rate)}` : '',
    });
  };
  const refresh = (): void => {
    const now = Date.now();
    for (const t of transfers.values()) show(t, now);
    if (total) {
      const all = [...ended.values(), ...transfers.values()];
      total.total = all.reduce((n, t) => n + t.total, 0);
      total.received = all.reduce((n, t) => n + t.received, 0);
      show(total, now);
    }
  };
  multi.on('update-pre', refresh);

  const start = (app: string, size: number): void => {
    ended.delete(app);
    transfers.set(app, { bar: newBar(app, size), started: Date.now(), total: size, received: 0 });
    if (total) {
      // A new bar goes below the others: take the total out and put it back last.
      multi.remove(total.bar);
      total.bar = newBar('total', 0);
    } else if (transfers.size > 1) {
      total = { bar: newBar('total', 0), started, total: 0, received: 0 };
    }
  };

  return {
    onEvent(e) {
      if (e.type === 'download:start') {
        start(e.app, e.total ?? 0);
      } else if (e.type === 'download:progress') {
        const t = transfers.get(e.app);
        if (!t) return;
        if (e.total) t.total = e.total;
        t.received = e.received;
      } else if (e.type === 'download:end') {
        const t = transfers.get(e.app);
        if (t) {
          transfers.delete(e.app);
          ended.set(e.app, { total: t.total, received: t.received });
          t.bar.stop();
          multi.remove(t.bar);
        }
      } else {
        // Writing between redraws would tear the bars; show these once the bars are gone.
        pending.push(e);
      }
    },
    stop() {
      multi.stop();
      for (const e of pending.splice(0)) fallback(e);
    },
  };
}

/** 75 -> "1m15s", for the ETA column. */
function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
