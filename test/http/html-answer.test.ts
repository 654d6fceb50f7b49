/**
 * An HTML page where JSON was expected (a captive portal, a proxy's login page, a wrong API URL)
 * is one line naming the host, not "is not JSON" with the parser's "Unexpected token '<'".
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { describeError, KeeperError } from '../../src/core/errors.js';
import { request } from '../../src/http/http.js';
import { createHttpSettings } from '../../src/http/settings.js';

void describe('an HTML answer to an API request', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        req.url === '/lower'
          ? '\n  <html><head><title>Login</title></head><body>sign in</body></html>'
          : '<!DOCTYPE html>\n<html><body>Welcome to the hotel Wi-Fi</body></html>',
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  for (const path of ['/repos/o/r/releases/latest', '/lower']) {
    void test(`names the host and the likely causes (${path})`, async () => {
      const res = await request(createHttpSettings(), `${base}${path}`);
      let caught: unknown;
      try {
        res.json();
      } catch (err) {
        caught = err;
      }
      assert.ok(caught instanceof KeeperError);
      assert.equal(caught.code, 'HTTP_HTML_PAGE');
      assert.equal(
        caught.message,
        `got an HTML page from ${new URL(base).host} (a captive portal, a proxy's login page, or a wrong API URL?)`,
      );
      assert.doesNotMatch(describeError(caught), /Unexpected token/);
    });
  }

  void test('a JSON answer that is not valid JSON keeps its own error', async () => {
    const { parseBoundedJson } = await import('../../src/http/json-limits.js');
    assert.throws(() => parseBoundedJson('{"a":', 'http://x.test/'), { code: 'HTTP_BAD_JSON' });
  });
});
