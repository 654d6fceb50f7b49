/**
 * What this run has learnt about the network: whether any server answered it yet, and whether a
 * request failed in a way that proves a working network (a DNS server saying "no such name", a
 * refused connection, a TLS error). Until either happens, a run whose lookups all fail with
 * EAI_AGAIN (the resolver cannot be reached) is offline even with a default route: a laptop on a
 * network whose DNS is not up yet (docs/network.md "Offline").
 */
import { causeCodes } from './cause-codes.js';

// No route to anywhere, or no resolver to ask: nothing proves a server exists.
const UNREACHABLE_CODES = new Set(['EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH']);
// Our own aborts and timeouts prove nothing either way.
const SILENT_CODES = new Set([
  'TRANSPORT_ABORTED',
  'TRANSPORT_CONNECT_TIMEOUT',
  'TRANSPORT_HEADERS_TIMEOUT',
  'ETIMEDOUT',
]);

/** Whether an error, or one of its causes, is an unreachable resolver (EAI_AGAIN) or no route. */
export function isUnreachable(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

/** The run's evidence that the network works (one per run, in `ctx.http`). */
export class NetworkReach {
  private heard = false;

  /** A server (or a DNS server, or a host refusing the connection) answered this run. */
  get answered(): boolean {
    return this.heard;
  }

  /** Records that a connection was made or a response head arrived. */
  noteAnswer(): void {
    this.heard = true;
  }

  /** Records a failed request: anything but no route, EAI_AGAIN, an abort or a timeout is an answer. */
  noteError(err: unknown): void {
    const code = codeOf(err);
    if (code === undefined || UNREACHABLE_CODES.has(code) || SILENT_CODES.has(code)) return;
    this.heard = true;
  }

  /**
   * Whether `err` means the run is offline although the machine has a route: nothing has answered
   * this run, and `err` is an unreachable resolver or no route.
   */
  silentlyUnreachable(err: unknown): boolean {
    return !this.heard && isUnreachable(err);
  }
}

// The innermost system or transport code of an error's cause chain.
function codeOf(err: unknown): string | undefined {
  return causeCodes(err)
    .filter((code) => /^E[A-Z0-9_]+$/.test(code) || code.startsWith('TRANSPORT_'))
    .at(-1);
}
