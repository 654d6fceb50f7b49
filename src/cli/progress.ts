import cliProgress from 'cli-progress';
import type { KeeperEvent } from '../core/events.js';
import type { Output } from './output.js';
import { formatBytes } from './table.js';
import { termText } from './terminal-text.js';

/**
 * Live download bars on stderr (one per active download plus a total), only when stderr is a TTY
 * and neither --json nor --quiet is set. Other events go to `fallback`.
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
      fps: 8,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, { bar: cliProgress.SingleBar; started: number; total: number }>();
  let totalBar: cliProgress.SingleBar | undefined;
  const pending: KeeperEvent[] = [];
  const started = Date.now();
  const received = new Map<string, number>();
  const totals = new Map<string, number>();
  const refreshTotal = (): void => {
    const sumTotal = [...totals.values()].reduce((a, b) => a + b, 0);
    const sumDone = [...received.values()].reduce((a, b) => a + b, 0);
    if (!totalBar && bars.size > 1) {
      totalBar = multi.create(sumTotal, sumDone, {
        name: 'total'.padEnd(16),
        done: '',
        size: '',
        rate: '',
        remaining: '',
      });
    }
    const secs = Math.max((Date.now() - started) / 1000, 0.001);
    totalBar?.setTotal(Math.max(sumTotal, 1));
    totalBar?.update(sumDone, {
      done: formatBytes(sumDone),
      size: formatBytes(sumTotal),
      rate: `${formatBytes(Math.round(sumDone / secs))}/s`,
    });
  };
  return {
    onEvent(e) {
      if (e.type === 'download:start') {
        const total = e.total ?? 0;
        const bar = multi.create(Math.max(total, 1), 0, {
          name: termText(e.app, 16).slice(0, 16).padEnd(16),
          done: formatBytes(0),
          size: total ? formatBytes(total) : '?',
          rate: '',
          remaining: '',
        });
        bars.set(e.app, { bar, started: Date.now(), total });
        totals.set(e.app, total);
        received.set(e.app, 0);
        refreshTotal();
      } else if (e.type === 'download:progress') {
        const b = bars.get(e.app);
        if (!b) return;
        if (e.total && e.total !== b.total) {
          b.total = e.total;
          b.bar.setTotal(e.total);
          totals.set(e.app, e.total);
        }
        const secs = Math.max((Date.now() - b.started) / 1000, 0.001);
        const rate = e.received / secs;
        b.bar.update(e.received, {
          done: formatBytes(e.received),
          size: b.total ? formatBytes(b.total) : '?',
          rate: `${formatBytes(Math.round(rate))}/s`,
          remaining: b.total && rate > 0 ? `eta ${formatSeconds((b.total - e.received) / rate)}` : '',
        });
        received.set(e.app, e.received);
        refreshTotal();
      } else if (e.type === 'download:end') {
        const b = bars.get(e.app);
        if (b) {
          b.bar.stop();
          multi.remove(b.bar);
          bars.delete(e.app);
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
