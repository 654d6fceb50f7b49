/**
 * Whether the machine has a route to the internet at all: a default route in the kernel's IPv4
 * or IPv6 table (/proc/net/route, /proc/net/ipv6_route). Without one, a request that failed for
 * lack of a route or of DNS cannot succeed on a retry, and a run knows it is offline.
 */
import { readFileSync } from 'node:fs';
import { causeCodes } from './cause-codes.js';

/** Where the kernel's routing tables are read (tests point these at files of their own). */
export interface RouteTables {
  ipv4: string;
  ipv6: string;
}

/** The kernel's tables on Linux. */
export const PROC_ROUTES: RouteTables = { ipv4: '/proc/net/route', ipv6: '/proc/net/ipv6_route' };

// Socket and resolver errors that mean "no route" or "no name resolution", not "that host is down".
const NO_NETWORK_CODES = new Set([
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EAI_FAIL',
]);
// Both tables are a few lines; bounded anyway.
const MAX_ROUTE_TABLE_CHARS = 1024 * 1024;

/** Whether an error, or one of its causes, is a no-route or no-name-resolution failure. */
export function isNoNetworkError(err: unknown): boolean {
  return causeCodes(err).some((code) => NO_NETWORK_CODES.has(code));
}

/**
 * Whether the kernel has a default route. Where the tables cannot be read (not Linux), it says
 * yes: without proof of no route, failures stay per request and per app as before.
 */
export function hasDefaultRoute(routes: RouteTables = PROC_ROUTES): boolean {
  const v4 = readTable(routes.ipv4);
  const v6 = readTable(routes.ipv6);
  if (v4 === undefined && v6 === undefined) return true;
  return ipv4Default(v4 ?? '') || ipv6Default(v6 ?? '');
}

function readTable(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1').slice(0, MAX_ROUTE_TABLE_CHARS);
  } catch {
    return undefined;
  }
}

// Iface Destination Gateway Flags RefCnt Use Metric Mask ...: destination and mask 0, RTF_UP set.
function ipv4Default(table: string): boolean {
  return table
    .split('\n')
    .slice(1)
    .some((line) => {
      const f = line.trim().split(/\s+/);
      return (
        f.length >= 8 && f[1] === '00000000' && f[7] === '00000000' && (parseInt(f[3] ?? '0', 16) & 1) === 1
      );
    });
}

// dest prefix src srcprefix next-hop metric refcnt use flags iface: ::/0, up, not lo.
function ipv6Default(table: string): boolean {
  return table.split('\n').some((line) => {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[0] !== '0'.repeat(32) || f[1] !== '00') return false;
    const flags = parseInt(f[8] ?? '0', 16);
    // RTF_REJECT (0x200) marks the kernel's "unreachable" placeholder: that is no route.
    return (flags & 1) === 1 && (flags & 0x200) === 0 && f[9] !== 'lo';
  });
}
