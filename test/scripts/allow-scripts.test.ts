/**
 * package.json's `allowScripts` covers every dependency with an install script, pinned to the
 * reviewed version: npm 11.16+ warns about the rest on every `npm ci`, and npm 12 blocks them.
 * npm trusts a pin only through the lockfile's `resolved` registry URL (a tarball's own
 * package.json can claim any name), so that URL must name the pinned version too. A dependency
 * bump that brings a new or changed install script fails here until it is reviewed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

interface LockEntry {
  version?: string;
  resolved?: string;
  hasInstallScript?: boolean;
}

const read = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const pkg = read('package.json') as { allowScripts?: Record<string, boolean> };
const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };

/** The package name of a lockfile key (`node_modules/a/node_modules/@s/b` → `@s/b`). */
const nameOf = (key: string): string => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

void describe('allowScripts', () => {
  const scripted = Object.entries(lock.packages).filter(([key, e]) => key !== '' && e.hasInstallScript);

  void it('names every dependency with an install script at its locked version', () => {
    const allowed = pkg.allowScripts ?? {};
    for (const [key, entry] of scripted) {
      const spec = `${nameOf(key)}@${entry.version ?? '?'}`;
      assert.equal(
        allowed[spec],
        true,
        `${spec} has an install script: review it and add it to allowScripts`,
      );
    }
  });

  void it('pins each entry to one version, which the lockfile resolves from the registry', () => {
    const entries = Object.keys(pkg.allowScripts ?? {});
    assert.ok(entries.length >= scripted.length);
    for (const spec of entries) {
      const m = /^((?:@[^/@]+\/)?[^@]+)@(\d+\.\d+\.\d+)$/.exec(spec);
      assert.ok(m, `${spec} is not pinned to one version`);
      const [, name = '', version = ''] = m;
      const entry = lock.packages[`node_modules/${name}`];
      assert.equal(entry?.version, version, `${spec}: the lockfile has ${name}@${entry?.version}`);
      const base = name.split('/').pop() ?? name;
      assert.equal(
        entry?.resolved,
        `https://registry.npmjs.org/${name}/-/${base}-${version}.tgz`,
        `${spec}: npm verifies a pinned entry by the lockfile's resolved URL`,
      );
    }
  });
});
