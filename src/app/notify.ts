import type { Workspace } from '../config/workspace.js';
import type { Context } from '../context/context.js';
import type { AppOutcome } from './outcome.js';
import { findProgram } from '../system/find-program.js';
import { runProgram } from '../system/run-program.js';
import { hasSessionBus } from '../system/session-bus.js';

/** One desktop notification. */
export interface Notification {
  summary: string;
  body: string;
  urgency: 'normal' | 'critical';
}

/** What the notifier did. */
export interface NotifyResult {
  sent: boolean;
  /** Why nothing was sent (nothing changed, no notify-send, no session bus, it failed). */
  reason?: string | undefined;
  argv?: string[] | undefined;
}

const APP_NAME = 'appimage-keeper';
const MAX_MESSAGE = 160;

// Notification servers read the body as a subset of HTML.
function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function shorten(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}

/**
 * The notification for one update run, counting only apps that want one: undefined when none of
 * them was updated or failed.
 */
export function buildNotification(
  outcomes: readonly AppOutcome[],
  wantsNotification: (app: string) => boolean,
): Notification | undefined {
  const relevant = outcomes.filter((o) => wantsNotification(o.name));
  const updated = relevant.filter((o) => o.status === 'updated');
  const failed = relevant.filter((o) => o.status === 'failed');
  if (updated.length === 0 && failed.length === 0) return undefined;
  const parts: string[] = [];
  if (updated.length) parts.push(`${updated.length} AppImage${updated.length > 1 ? 's' : ''} updated`);
  if (failed.length) parts.push(`${failed.length} failed`);
  const lines = [
    ...updated.map((o) =>
      o.from_version && o.from_version !== o.to_version
        ? `${o.name} ${o.from_version} → ${o.to_version ?? '?'}`
        : `${o.name} ${o.to_version ?? ''}`.trimEnd(),
    ),
    ...failed.map((o) => `${o.name} failed: ${shorten(o.error?.message ?? 'unknown error')}`),
  ];
  return {
    summary: parts.join(', '),
    body: escapeMarkup(lines.join('\n')),
    urgency: failed.length ? 'critical' : 'normal',
  };
}

/** The argv passed to notify-send (without the program itself). */
export function notifySendArgs(n: Notification): string[] {
  return [
    `--app-name=${APP_NAME}`,
    `--urgency=${n.urgency}`,
    '--icon=system-software-update',
    n.summary,
    n.body,
  ];
}

/** Effective `notify` of an app: its recipe's value, or the global one when the recipe is unusable. */
export function notifyEnabled(ws: Workspace, app: string): boolean {
  const entry = ws.apps.find((a) => a.name === app);
  return entry?.ok ? entry.settings.notify : ws.global.notify;
}

/**
 * After `update`: one desktop notification through notify-send when apps that want one were
 * updated or failed. Silently skipped without notify-send or a session bus; never throws.
 */
export async function notifyAfterUpdate(
  ctx: Context,
  ws: Workspace,
  outcomes: readonly AppOutcome[],
): Promise<NotifyResult> {
  const n = buildNotification(outcomes, (app) => notifyEnabled(ws, app));
  if (!n) return { sent: false, reason: 'nothing to report' };
  if (!(await hasSessionBus(ctx.env))) return { sent: false, reason: 'no session bus' };
  const program = await findProgram('notify-send', ctx.env);
  if (!program) return { sent: false, reason: 'notify-send not found' };
  const argv = notifySendArgs(n);
  const r = await runProgram(program, argv, { env: ctx.env, timeoutMs: 5000 });
  if (r.code !== 0) {
    ctx.emit({ type: 'info', message: `notify-send failed: ${r.stderr.trim()}` });
    return { sent: false, reason: 'notify-send failed', argv };
  }
  return { sent: true, argv };
}
