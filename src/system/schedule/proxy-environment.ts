/**
 * The proxy variables `schedule install` writes into the service: the systemd user manager does
 * not see the login shell's environment, so a proxy set there would be lost to the timer. A
 * value with credentials is withheld (unit files are world-readable; systemd cannot redact), and
 * the user is told to put it in config.yml, which the timer reads (docs/network.md).
 */
import { proxyEnvironment, proxyInputFromEnv } from '../../http/proxy-env.js';

/** What goes into the unit, and the variables left out because they hold credentials. */
export interface UnitProxyEnvironment {
  written: Record<string, string>;
  withheld: string[];
}

/** The shell's proxy variables as the unit's `Environment=` assignments. */
export function unitProxyEnvironment(env: NodeJS.ProcessEnv): UnitProxyEnvironment {
  const written: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(proxyEnvironment(proxyInputFromEnv(env)))) {
    if (hasCredentials(value)) withheld.push(name);
    else written[name] = value;
  }
  return { written, withheld };
}

/** The proxy variable names set (non-empty) in `env` that the unit text does not assign. */
export function proxyVariablesMissingFromUnit(env: NodeJS.ProcessEnv, unitText: string): string[] {
  const assigned = new Set([...unitText.matchAll(/^Environment=["']?([A-Za-z_]+)=/gm)].map((m) => m[1]));
  return Object.entries(proxyEnvironment(proxyInputFromEnv(env)))
    .filter(([name, value]) => value.trim() !== '' && name === name.toLowerCase() && !assigned.has(name))
    .map(([name]) => name);
}

function hasCredentials(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value.trim()) || /^[^/]*@/.test(value.trim());
}
