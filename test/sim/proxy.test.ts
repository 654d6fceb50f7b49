import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSim, type Sim } from '../../sim/index.js';
import { json, raw } from './raw-http.js';

void describe('metadata proxy', () => {
  let sim: Sim;
  let echo: Server;
  let echoUrl: string;
  let echoed: IncomingHttpHeaders[] = [];
  before(async () => {
    sim = await startSim();
    sim.hub.setLatest('o', 'r', { tag: 'v7', assets: [] });
    // A separate loopback server that remembers the headers the proxy sent it.
    echo = createServer((req, res) => {
      echoed.push(req.headers);
      res.writeHead(201, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      res.end('echo body');
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });
  after(async () => {
    await sim.stop();
    await new Promise((resolve) => echo.close(resolve));
  });

  void test('the prefix lives on the second origin and relays status, headers and body', async () => {
    assert.equal(sim.proxyPrefix(), `${sim.secondUrl}/proxy/`);
    const res = await raw(`${sim.proxyPrefix()}${echoUrl}/some/path?q=1`);
    assert.equal(res.status, 201);
    assert.equal(res.headers['x-upstream'], 'yes');
    assert.equal(res.body.toString(), 'echo body');
  });

  void test('proxies the hub API of the sim itself, with conditional requests', async () => {
    const api = `${sim.url}/repos/o/r/releases/latest`;
    sim.clearRequests();
    const res = await json(`${sim.proxyPrefix()}${api}`);
    assert.equal(res.status, 200);
    assert.equal((res.body as { tag_name: string }).tag_name, 'v7');
    assert.deepEqual(
      sim.requests.map((r) => [r.origin, r.path]),
      [
        ['second', `/proxy/${api}`],
        ['main', '/repos/o/r/releases/latest'],
      ],
    );
    const etag = String(res.headers.etag);
    const again = await raw(`${sim.proxyPrefix()}${api}`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const encoded = await json(`${sim.proxyPrefix()}${encodeURIComponent(api)}`);
    assert.equal(encoded.status, 200);
  });

  void test('never forwards Authorization, but records it on the proxy request', async () => {
    echoed = [];
    sim.clearRequests();
    await raw(`${sim.proxyPrefix()}${echoUrl}/x`, {
      headers: { authorization: 'Bearer secret-token', accept: 'application/vnd.github+json' },
    });
    assert.equal(echoed.length, 1);
    assert.equal(echoed[0]?.authorization, undefined);
    assert.equal(echoed[0]?.accept, 'application/vnd.github+json');
    assert.equal(sim.requests[0]?.headers.authorization, 'Bearer secret-token');

    sim.clearRequests();
    await raw(`${sim.proxyPrefix()}${sim.url}/repos/o/r/releases/latest`, {
      headers: { authorization: 'token t' },
    });
    const hop = sim.requests.find((r) => r.origin === 'main');
    assert.ok(hop);
    assert.equal(hop.headers.authorization, undefined);
  });

  void test('refuses non-loopback and malformed targets with 400', async () => {
    for (const target of ['http://example.com/x', 'https://127.0.0.1/x', 'http://10.0.0.1/x', 'not-a-url']) {
      const res = await raw(`${sim.proxyPrefix()}${target}`);
      assert.equal(res.status, 400, target);
    }
    assert.equal(
      echoed.every((h) => h.host?.startsWith('127.0.0.1')),
      true,
    );
  });

  void test('faults on the target path do not hit the proxy hop; faults on the proxy path do', async () => {
    sim.fault('/repos/o/r/releases/latest', { rateLimit: { kind: '403-remaining', resetInSeconds: 60 } });
    try {
      assert.equal((await raw(`${sim.url}/repos/o/r/releases/latest`)).status, 403);
      assert.equal((await raw(`${sim.proxyPrefix()}${sim.url}/repos/o/r/releases/latest`)).status, 200);
      sim.fault(/^\/proxy\//, { status: 502, times: 1 });
      assert.equal((await raw(`${sim.proxyPrefix()}${sim.url}/repos/o/r/releases/latest`)).status, 502);
    } finally {
      sim.clearFaults();
    }
  });

  void test('an unreachable loopback target is a 502', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const res = await raw(`${sim.proxyPrefix()}http://127.0.0.1:${port}/x`);
    assert.equal(res.status, 502);
  });
});
