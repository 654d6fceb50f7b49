/**
 * Builds a run's network settings from the environment and config.yml's proxy fields, the one
 * place the two meet (config over environment, field by field).
 */
import { createCaStore, type CaStore } from './ca-store.js';
import { KeeperError } from '../core/errors.js';
import {
  mergeProxyInput,
  parseProxyRules,
  proxyEnvironment,
  proxyInputFromEnv,
  type ProxyInput,
} from './proxy-env.js';
import { createHttpSettings, type HttpSettings } from './settings.js';

/** The config.yml fields that concern the proxy (a GlobalSettings fits). */
export type ProxyFields = Pick<ProxyInput, 'https_proxy' | 'http_proxy' | 'no_proxy'>;

/**
 * Settings whose proxy follows `env` and then `config`. A malformed proxy does not throw here
 * (commands that make no request still work); every request fails with PROXY_INVALID instead.
 */
export function httpSettingsFor(
  env: NodeJS.ProcessEnv,
  config: ProxyFields = {},
  ca: CaStore = createCaStore(env),
): HttpSettings {
  const input = effectiveProxyInput(env, config);
  const proxyEnv = proxyEnvironment(input);
  try {
    return createHttpSettings({ ca, proxy: parseProxyRules(input), proxyEnv });
  } catch (err) {
    if (!(err instanceof KeeperError)) throw err;
    return createHttpSettings({ ca, proxyError: err, proxyEnv });
  }
}

/** The effective raw settings: config.yml's fields over the environment's variables. */
export function effectiveProxyInput(env: NodeJS.ProcessEnv, config: ProxyFields = {}): ProxyInput {
  return mergeProxyInput(
    { https_proxy: config.https_proxy, http_proxy: config.http_proxy, no_proxy: config.no_proxy },
    proxyInputFromEnv(env),
  );
}

/** True when config.yml sets a proxy field, so the run's settings must be rebuilt with them. */
export function hasProxyFields(config: ProxyFields): boolean {
  return config.https_proxy !== undefined || config.http_proxy !== undefined || config.no_proxy !== undefined;
}

/**
 * Applies config.yml's network fields to a run whose settings were built from the environment:
 * proxy fields rebuild `ctx.http` (keeping its CA store), and `ca_file` joins the CA store.
 */
export function applyNetworkFields(
  ctx: { env: NodeJS.ProcessEnv; http: HttpSettings },
  global: ProxyFields & { ca_file?: string | undefined },
): void {
  if (hasProxyFields(global)) ctx.http = httpSettingsFor(ctx.env, global, ctx.http.ca);
  ctx.http.ca.setCaFile(global.ca_file);
}
