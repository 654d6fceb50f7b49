// curl's proxy variable rules (docs/network.md): which variable wins, NO_PROXY's forms, config
// over environment, and redaction of the credentials.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  mergeProxyInput,
  parseProxyRules,
  proxyEnvironment,
  proxyFor,
  proxyInputFromEnv,
  redactProxy,
} from '../../src/http/proxy-env.js';

function route(env: NodeJS.ProcessEnv, url: string): string | undefined {
  return proxyFor(parseProxyRules(proxyInputFromEnv(env)), new URL(url))?.href;
}

void describe('proxy variables', () => {
  void test('lower case wins over upper case; upper-case HTTP_PROXY is ignored as curl does', () => {
    const env = { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:2', HTTP_PROXY: 'http://evil:3' };
    assert.equal(route(env, 'https://a.example/'), 'http://low:1/');
    assert.equal(route(env, 'http://a.example/'), undefined);
    assert.equal(route({ HTTPS_PROXY: 'http://up:2' }, 'https://a.example/'), 'http://up:2/');
    assert.equal(route({ http_proxy: 'http://p:8' }, 'http://a.example/'), 'http://p:8/');
  });

  void test('all_proxy is the fallback of both schemes; a scheme variable set empty turns it off', () => {
    assert.equal(route({ ALL_PROXY: 'socks5h://s:1080' }, 'https://a.example/'), 'socks5h://s:1080');
    assert.equal(route({ all_proxy: 'http://all:1' }, 'http://a.example/'), 'http://all:1/');
    assert.equal(route({ all_proxy: 'http://all:1', https_proxy: '' }, 'https://a.example/'), undefined);
  });

  void test('a bare host:port is an http proxy; other schemes fail with PROXY_INVALID, value unquoted', () => {
    assert.equal(route({ https_proxy: 'proxy.corp:3128' }, 'https://a.example/'), 'http://proxy.corp:3128/');
    assert.throws(
      () => parseProxyRules({ https_proxy: 'ftp://u:s3cret@p:21' }),
      (err: Error & { code?: string }) => err.code === 'PROXY_INVALID' && !err.message.includes('s3cret'),
    );
  });

  void test('NO_PROXY: suffixes with or without a dot, *, IPs, CIDR ranges, ports', () => {
    const env = {
      https_proxy: 'http://p:1',
      http_proxy: 'http://p:1',
      NO_PROXY: 'example.com, .corp.lan,10.0.0.0/8, 192.168.1.5,[::1],fd00::/8,only.port:8443,*.wild.test',
    };
    assert.equal(route(env, 'https://example.com/'), undefined);
    assert.equal(route(env, 'https://api.example.com/'), undefined);
    assert.equal(route(env, 'https://notexample.com/'), 'http://p:1/');
    assert.equal(route(env, 'https://corp.lan/'), undefined);
    assert.equal(route(env, 'https://x.corp.lan/'), undefined);
    assert.equal(route(env, 'http://10.2.3.4/'), undefined);
    assert.equal(route(env, 'http://11.2.3.4/'), 'http://p:1/');
    assert.equal(route(env, 'http://192.168.1.5/'), undefined);
    assert.equal(route(env, 'http://192.168.1.6/'), 'http://p:1/');
    assert.equal(route(env, 'http://[::1]:8080/'), undefined);
    assert.equal(route(env, 'http://[fd00::5]/'), undefined);
    assert.equal(route(env, 'https://only.port:8443/'), undefined);
    assert.equal(route(env, 'https://only.port/'), 'http://p:1/');
    assert.equal(route(env, 'https://a.wild.test/'), undefined);
    assert.equal(route(env, 'https://EXAMPLE.COM./'), undefined);
    assert.equal(route({ ...env, no_proxy: '*' }, 'https://anything.example/'), undefined);
    // The lower-case variable wins even when it lists nothing.
    assert.equal(route({ ...env, no_proxy: '' }, 'https://example.com/'), 'http://p:1/');
  });

  void test('config.yml fields win over the environment, field by field', () => {
    const merged = mergeProxyInput(
      { https_proxy: 'http://cfg:1', no_proxy: 'a.test' },
      proxyInputFromEnv({ https_proxy: 'http://env:2', http_proxy: 'http://envh:3', no_proxy: 'b.test' }),
    );
    const rules = parseProxyRules(merged);
    assert.equal(proxyFor(rules, new URL('https://x.test/'))?.host, 'cfg:1');
    assert.equal(proxyFor(rules, new URL('http://x.test/'))?.host, 'envh:3');
    assert.equal(proxyFor(rules, new URL('https://a.test/')), undefined);
    assert.equal(proxyFor(rules, new URL('https://b.test/'))?.host, 'cfg:1');
    assert.deepEqual(proxyEnvironment(merged), {
      https_proxy: 'http://cfg:1',
      HTTPS_PROXY: 'http://cfg:1',
      http_proxy: 'http://envh:3',
      no_proxy: 'a.test',
      NO_PROXY: 'a.test',
    });
  });

  void test('a proxy is shown without its password', () => {
    assert.equal(redactProxy(new URL('http://user:pa%40ss@proxy:3128/')), 'http://user:***@proxy:3128');
    assert.equal(redactProxy(new URL('socks5h://proxy:1080')), 'socks5h://proxy:1080');
  });
});
