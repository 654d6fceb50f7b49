// Socket errors become transport errors that keep node's own code, so a message names its cause once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromSocketError } from '../../src/http/transport-errors.js';

function sysError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

void test("node's error codes are kept, those with an underscore (resolver errors) included", () => {
  for (const [code, message] of [
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND forge.test'],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN forge.test'],
    ['EAI_FAIL', 'getaddrinfo EAI_FAIL forge.test'],
  ] as const) {
    const err = fromSocketError(sysError(code, message), 'https://forge.test/');
    assert.equal(err.code, code, message);
    assert.equal(
      err.message.split(code).length - 1,
      2,
      `the code appears in node's text and once more: ${err.message}`,
    );
  }
});

void test('anything else is a closed transport, and never takes a code it was not given', () => {
  assert.equal(fromSocketError(new Error('socket hang up'), 'https://h/').code, 'TRANSPORT_CLOSED');
  assert.equal(fromSocketError(sysError('weird code', 'x'), 'https://h/').code, 'TRANSPORT_CLOSED');
});
