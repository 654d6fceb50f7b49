/**
 * The offline rule on its own: a no-network failure (no route, no name resolution) on a machine
 * whose route tables have no default route. Real route tables in the kernel's format, in temp files.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { hasDefaultRoute, isNoNetworkError, OfflineWatch } from '../../src/app/offline.js';
import { NetworkReach } from '../../src/http/reach.js';

const dir = mkdtempSync(join(tmpdir(), 'ak-routes-'));
const HEAD = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n';
const V4_DEFAULT = `${HEAD}eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\neth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n`;
const V4_LAN_ONLY = `${HEAD}eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n`;
const Z = '0'.repeat(32);
// What a namespace with no interface has: the kernel's "unreachable" ::/0 placeholders on lo.
const V6_REJECT = `${Z} 00 ${Z} 00 ${Z} ffffffff 00000001 00000000 00200200       lo\n`;
const V6_DEFAULT = `${Z} 00 ${Z} 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0\n`;

function tables(v4: string, v6: string): { ipv4: string; ipv6: string } {
  const id = Math.random().toString(36).slice(2);
  const t = { ipv4: join(dir, `${id}-v4`), ipv6: join(dir, `${id}-v6`) };
  writeFileSync(t.ipv4, v4);
  writeFileSync(t.ipv6, v6);
  return t;
}
const sys = (code: string): Error => Object.assign(new Error(`getaddrinfo ${code} api.github.com`), { code });

void describe('offline detection', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  void test('default routes in either table are seen; reject placeholders are not', () => {
    assert.equal(hasDefaultRoute(tables(V4_DEFAULT, '')), true);
    assert.equal(hasDefaultRoute(tables(HEAD, V6_DEFAULT)), true);
    assert.equal(hasDefaultRoute(tables(V4_LAN_ONLY, V6_REJECT)), false);
    assert.equal(hasDefaultRoute(tables('', '')), false);
    assert.equal(
      hasDefaultRoute({ ipv4: join(dir, 'none'), ipv6: join(dir, 'none6') }),
      true,
      'unknown: not offline',
    );
  });

  void test('a no-network error, in a cause chain, with no default route: offline, the signal aborts with exit 75', () => {
    const watch = new OfflineWatch(tables('', V6_REJECT));
    const wrapped = new Error('request failed', { cause: new Error('x', { cause: sys('EAI_AGAIN') }) });
    assert.equal(watch.noteFailure(wrapped), true);
    assert.equal(watch.signal.aborted, true);
    assert.equal((watch.signal.reason as { exitCode: number }).exitCode, 75);
  });

  void test('a refused connection or a timeout is one host down, never offline', () => {
    const watch = new OfflineWatch(tables('', ''));
    assert.equal(watch.noteFailure(sys('ECONNREFUSED')), false);
    assert.equal(watch.noteFailure(new Error('timed out')), false);
    assert.equal(watch.offline, false);
  });

  void test('with a default route, a misspelled host fails only its app', () => {
    const watch = new OfflineWatch(tables(V4_DEFAULT, ''));
    assert.equal(watch.noteFailure(sys('ENOTFOUND')), false);
    assert.equal(watch.noteFailure(sys('ENETUNREACH')), false);
    assert.equal(watch.offline, false);
  });

  void test('a route but no DNS: EAI_AGAIN before anything answered is offline', () => {
    const reach = new NetworkReach();
    const watch = new OfflineWatch(tables(V4_DEFAULT, ''), reach);
    const wrapped = new Error('request failed', { cause: new Error('x', { cause: sys('EAI_AGAIN') }) });
    reach.noteError(wrapped.cause);
    assert.equal(reach.answered, false, 'an unreachable resolver is no answer');
    assert.equal(watch.noteFailure(wrapped), true);
    assert.equal((watch.signal.reason as { exitCode: number }).exitCode, 75);
  });

  void test('a route, and a server answered this run: EAI_AGAIN fails only its app', () => {
    const reach = new NetworkReach();
    const watch = new OfflineWatch(tables(V4_DEFAULT, ''), reach);
    reach.noteAnswer();
    assert.equal(watch.noteFailure(sys('EAI_AGAIN')), false);
    assert.equal(watch.offline, false);
  });

  void test('a DNS server saying "no such name" (ENOTFOUND) or a refused connection is an answer', () => {
    for (const code of ['ENOTFOUND', 'ECONNREFUSED', 'ECONNRESET']) {
      const reach = new NetworkReach();
      const watch = new OfflineWatch(tables(V4_DEFAULT, ''), reach);
      reach.noteError(sys(code));
      assert.equal(reach.answered, true, code);
      assert.equal(watch.noteFailure(sys('EAI_AGAIN')), false, code);
      assert.equal(watch.noteFailure(sys('ENOTFOUND')), false, code);
    }
    // Our own abort or timeout proves nothing: EAI_AGAIN after them is still offline.
    const reach = new NetworkReach();
    reach.noteError(sys('ETIMEDOUT'));
    reach.noteError(Object.assign(new Error('aborted'), { code: 'TRANSPORT_ABORTED' }));
    assert.equal(new OfflineWatch(tables(V4_DEFAULT, ''), reach).noteFailure(sys('EAI_AGAIN')), true);
  });

  void test('the codes that mean no network', () => {
    for (const code of ['ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'EAI_AGAIN', 'ENOTFOUND']) {
      assert.equal(isNoNetworkError(sys(code)), true, code);
    }
    assert.equal(isNoNetworkError(sys('ECONNRESET')), false);
  });
});
