/**
 * `doctor`'s `proxy` check: the proxy in effect (redacted) and whether the timer, which does not
 * see the login shell's environment, will use the proxy the shell sets.
 */
import type { Context } from '../../context/context.js';
import { redactProxy } from '../../http/proxy-env.js';
import type { ProxyFields } from '../../http/proxy-settings.js';
import { proxyVariablesMissingFromUnit } from '../schedule/proxy-environment.js';
import { readUnitFile } from '../schedule/read-unit-file.js';
import { UNIT_HEADER } from '../schedule/service-file.js';
import { unitLocation } from '../schedule/unit-location.js';
import { check, type DoctorCheck } from './types.js';

const ID = 'proxy';

/** The proxy check; `config` holds config.yml's proxy fields (which the timer reads too). */
export function proxyCheck(ctx: Context, config: ProxyFields): DoctorCheck {
  const rules = ctx.http.proxy;
  const shown = rules
    ? `https via ${rules.https ? redactProxy(rules.https) : 'direct'}, http via ${rules.http ? redactProxy(rules.http) : 'direct'}`
    : 'none (direct connections)';
  const unit = readUnitFile(unitLocation(ctx.paths, ctx.env).servicePath);
  if (unit.kind === 'text' && unit.text.startsWith(UNIT_HEADER)) {
    const fromConfig = new Set(
      Object.entries(config)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k),
    );
    const missing = proxyVariablesMissingFromUnit(ctx.env, unit.text).filter((n) => !fromConfig.has(n));
    if (missing.length > 0) {
      return check(
        ID,
        'warn',
        `the shell sets ${missing.join(', ')}, which the timer does not see (proxy: ${shown})`,
        'run `appimage-keeper schedule install` again, or set the proxy in config.yml (https_proxy, http_proxy, no_proxy)',
      );
    }
  }
  return check(ID, 'ok', `proxy: ${shown}`);
}
