/**
 * The trust store of a run: which files it reads (SSL_CERT_FILE over the distribution bundle,
 * SSL_CERT_DIR, ca_file), lazily, bounded, and what a TLS client then accepts. Real certificates
 * from openssl, a real TLS server on loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCaStore } from '../../src/http/ca-store.js';
import { request } from '../../src/http/http.js';
import { createHttpSettings } from '../../src/http/settings.js';
import { makeTestCa, type TestCa } from '../helpers/test-ca.js';

void describe('the CA store of a run', () => {
  let ca: TestCa;
  let dir: string;
  let server: Server;
  let url: string;
  before(async () => {
    ca = makeTestCa();
    dir = mkdtempSync(join(tmpdir(), 'ak-ca-store-'));
    server = createServer({ key: ca.key, cert: ca.cert }, (_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    ca.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const fetchWith = (store: ReturnType<typeof createCaStore>) =>
    request(createHttpSettings({ ca: store }), url, { retries: 0 });

  void test('the first distribution bundle found is the system store, through a symlink', async () => {
    const bundle = join(dir, 'bundle.pem');
    symlinkSync(ca.caFile, bundle);
    const store = createCaStore({}, [join(dir, 'missing.crt'), bundle]);
    assert.equal((await fetchWith(store)).status, 200);
    assert.deepEqual(
      store.sources().map((s) => [s.kind, s.path, s.certificates]),
      [
        ['node', '', store.sources()[0]?.certificates],
        ['system', bundle, 1],
      ],
    );
  });

  void test('SSL_CERT_FILE replaces the bundle; SSL_CERT_DIR and ca_file add theirs', async () => {
    const certDir = join(dir, 'certs');
    mkdirSync(certDir);
    writeFileSync(join(certDir, 'a.pem'), `junk\n${ca.cert}`);
    const store = createCaStore({ SSL_CERT_FILE: join(dir, 'nope.pem'), SSL_CERT_DIR: certDir }, [ca.caFile]);
    store.setCaFile(ca.caFile);
    assert.equal((await fetchWith(store)).status, 200);
    const kinds = store.sources().map((s) => [s.kind, s.certificates, s.problem]);
    assert.deepEqual(kinds.slice(1), [
      ['SSL_CERT_FILE', 0, 'missing'],
      ['SSL_CERT_DIR', 1, undefined],
      ['ca_file', 1, undefined],
    ]);
  });

  void test('NODE_EXTRA_CA_CERTS still counts once the system store adds a CA (read once per path)', async () => {
    // Another CA in the "system" bundle makes the store build its own context, which starts from
    // node's bundled roots alone: NODE_EXTRA_CA_CERTS must be read into it again.
    const other = makeTestCa();
    try {
      const store = createCaStore({ NODE_EXTRA_CA_CERTS: ca.caFile }, [other.caFile]);
      assert.equal((await fetchWith(store)).status, 200);
      assert.deepEqual(
        store
          .sources()
          .map((s) => [s.kind, s.certificates])
          .slice(1),
        [
          ['system', 1],
          ['NODE_EXTRA_CA_CERTS', 1],
        ],
      );
      const same = createCaStore({ NODE_EXTRA_CA_CERTS: ca.caFile }, [ca.caFile]);
      assert.deepEqual(
        same.sources().map((s) => s.kind),
        ['node', 'system'],
      );
    } finally {
      other.dispose();
    }
  });

  void test('without the CA anywhere: HTTP_CERTIFICATE, one line naming the host, not retried', async () => {
    const store = createCaStore({}, [join(dir, 'missing.crt')]);
    await assert.rejects(
      request(createHttpSettings({ ca: store }), url),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'HTTP_CERTIFICATE');
        assert.ok(
          err.message.startsWith(`the certificate of ${new URL(url).host} is not trusted:`),
          err.message,
        );
        assert.doesNotMatch(err.message, /\n/);
        return true;
      },
    );
  });

  void test('a file past 8 MiB or holding no certificate is refused, not read whole', () => {
    const big = join(dir, 'big.pem');
    writeFileSync(big, '');
    truncateSync(big, 9 * 1024 * 1024);
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'no certificate here\n');
    const store = createCaStore({ SSL_CERT_FILE: big }, []);
    store.setCaFile(empty);
    const problems = store.sources().map((s) => s.problem);
    assert.match(problems[1] ?? '', /larger than 8388608 bytes/);
    assert.equal(problems[2], 'no PEM certificate in it');
  });

  void test('nothing is read before the first TLS connection', () => {
    const store = createCaStore({ SSL_CERT_FILE: join(dir, 'created-later.pem') }, []);
    const http = createHttpSettings({ ca: store });
    http.agentFor(new URL('http://127.0.0.1/'));
    writeFileSync(join(dir, 'created-later.pem'), ca.cert);
    http.agentFor(new URL('https://127.0.0.1/'));
    assert.equal(store.sources()[1]?.certificates, 1, 'read at the https agent, after the file existed');
  });
});
