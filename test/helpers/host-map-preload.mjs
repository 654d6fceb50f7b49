// Loaded into a spawned CLI with `node --import` (see host-map.ts): requests to the hosts named in
// AK_TEST_HOST_MAP go to a loopback origin instead (plain HTTP, same path), so recipes that name
// real public hosts can be resolved against the simulator unchanged. Tests only: the machine has
// no internet, and no TLS certificate for those hosts. The CLI's own code is not touched.
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';

const map = JSON.parse(process.env.AK_TEST_HOST_MAP ?? '{}');
const originalHttp = http.request;

function redirect(original) {
  return function request(target, options, callback) {
    const url = typeof target === 'string' ? new URL(target) : target instanceof URL ? target : undefined;
    const to = url ? map[url.host] : undefined;
    if (!url || !to) return original.call(this, target, options, callback);
    const mapped = new URL(url.pathname + url.search, to);
    const opts = typeof options === 'object' && options !== null ? { ...options } : {};
    delete opts.agent;
    return originalHttp(mapped, opts, typeof options === 'function' ? options : callback);
  };
}

http.request = redirect(http.request);
https.request = redirect(https.request);
syncBuiltinESMExports();
