/** `doctor --online`'s certificate line: every source in use, and the ones that could not be read. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { certificateCheck } from '../../src/system/doctor/cert-checks.js';

void describe('doctor: certificate sources', () => {
  void test('lists the sources in use with their counts', () => {
    const c = certificateCheck([
      { kind: 'node', path: '', certificates: 144 },
      { kind: 'system', path: '/etc/ssl/certs/ca-certificates.crt', certificates: 146 },
    ]);
    assert.equal(c.status, 'ok');
    assert.equal(
      c.message,
      "certificates: node's roots (144), system /etc/ssl/certs/ca-certificates.crt (146)",
    );
  });

  void test('an unreadable ca_file fails; an unreadable SSL_CERT_FILE warns', () => {
    const node = { kind: 'node', path: '', certificates: 144 };
    const caFile = certificateCheck([
      node,
      { kind: 'ca_file', path: '/x/ca.pem', certificates: 0, problem: 'missing' },
    ]);
    assert.equal(caFile.status, 'fail');
    assert.match(caFile.message, /not used: ca_file \/x\/ca\.pem: missing/);
    const env = certificateCheck([
      node,
      { kind: 'SSL_CERT_FILE', path: '/y', certificates: 0, problem: 'EACCES' },
    ]);
    assert.equal(env.status, 'warn');
    assert.ok(env.hint);
  });
});
