#!/usr/bin/env node
// Set-up step of `npm test` and CI: the tests build real SquashFS images, zsync control files, ZIP
// archives and signatures, and validate desktop entries with these Debian tools. A missing one is
// installed when this user can (root, or `sudo -n` works); otherwise the run stops here, before any
// test, with the command that installs them.
//
// For this script's own tests only: ENSURE_TOOLS_UID=<n> makes it act as if it ran as that user id
// (e.g. 1000 to try the non-root paths as root). PATH decides where tools, apt-get and sudo are found.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Each command the tests run and the Debian package that provides it. */
export const TOOLS = [
  { command: 'mksquashfs', pkg: 'squashfs-tools' },
  { command: 'unsquashfs', pkg: 'squashfs-tools' },
  { command: 'zsyncmake', pkg: 'zsync' },
  { command: 'zsync', pkg: 'zsync' },
  { command: 'desktop-file-validate', pkg: 'desktop-file-utils' },
  { command: 'zip', pkg: 'zip' },
  { command: 'gpg', pkg: 'gnupg' },
  // The zsh completion script is run in zsh (test/commands/completion.test.ts).
  { command: 'zsh', pkg: 'zsh' },
  // examples/ansible/site.yml is run for real (test/e2e/ansible/playbook.test.ts).
  { command: 'ansible-playbook', pkg: 'ansible-core' },
  // A real forward proxy for the proxy tests (test/helpers/tinyproxy.ts).
  { command: 'tinyproxy', pkg: 'tinyproxy' },
  // A real SOCKS5 server for the SOCKS tests (test/helpers/microsocks.ts).
  { command: 'microsocks', pkg: 'microsocks' },
  // Compresses the standalone release asset and self-update's .zst test assets.
  { command: 'zstd', pkg: 'zstd' },
];

const SUDO_PROBE_MS = 10_000;
const APT_UPDATE_MS = 5 * 60_000;
const APT_INSTALL_MS = 10 * 60_000;

function findOnPath(name, pathVar) {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function missingTools(env) {
  return TOOLS.filter((t) => !findOnPath(t.command, env.PATH));
}

function packagesOf(tools) {
  return [...new Set(tools.map((t) => t.pkg))];
}

function describe(tools) {
  return packagesOf(tools)
    .map((pkg) => {
      const commands = tools.filter((t) => t.pkg === pkg).map((t) => t.command);
      return `${commands.join(', ')} (${pkg})`;
    })
    .join(', ');
}

function areMissing(tools) {
  return tools.length === 1 ? 'which is missing' : 'which are missing';
}

function installCommand(pkgs, asRoot) {
  const sudo = asRoot ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}apt-get install -y ${pkgs.join(' ')}`;
}

function currentUid(env) {
  const forced = env.ENSURE_TOOLS_UID;
  if (forced !== undefined && /^\d+$/.test(forced)) return Number(forced);
  return typeof process.getuid === 'function' ? process.getuid() : -1;
}

function run(argv, env, timeout) {
  const res = spawnSync(argv[0], argv.slice(1), {
    env,
    timeout,
    // apt's progress goes to our stderr so that stdout stays the test runner's.
    stdio: ['ignore', 2, 2],
  });
  if (res.error) return `${argv.join(' ')}: ${res.error.message}`;
  if (res.status !== 0) return `${argv.join(' ')} exited with ${res.status ?? res.signal}`;
  return undefined;
}

function fail(message) {
  process.stderr.write(`ensure-tools: ${message}\n`);
  return 1;
}

/** Checks the tools and installs the missing ones when possible; returns the exit code. */
export function ensureTools(env = process.env) {
  const missing = missingTools(env);
  if (missing.length === 0) return 0;
  const pkgs = packagesOf(missing);
  const root = currentUid(env) === 0;
  const aptGet = findOnPath('apt-get', env.PATH);
  const sudo = root ? undefined : findOnPath('sudo', env.PATH);
  const canSudo = !root && sudo !== undefined && run([sudo, '-n', 'true'], env, SUDO_PROBE_MS) === undefined;
  const advice = `install them with: ${installCommand(pkgs, root)}`;
  if (!aptGet) {
    return fail(
      `the tests need ${describe(missing)}, ${areMissing(missing)}, and apt-get is not on PATH; ${advice} (or your system's equivalent), then run the tests again`,
    );
  }
  if (!root && !canSudo) {
    return fail(
      `the tests need ${describe(missing)}, ${areMissing(missing)}, and this user cannot install them (not root, and sudo -n is not allowed); ${advice}, then run the tests again`,
    );
  }
  process.stderr.write(`ensure-tools: installing ${pkgs.join(' ')} for ${describe(missing)}\n`);
  const prefix = root ? [] : [sudo, '-n'];
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const failed =
    run([...prefix, aptGet, 'update'], aptEnv, APT_UPDATE_MS) ??
    run([...prefix, aptGet, 'install', '-y', ...pkgs], aptEnv, APT_INSTALL_MS);
  if (failed) return fail(`installing the test tools failed (${failed}); ${advice}`);
  const still = missingTools(env);
  if (still.length > 0) {
    return fail(`after apt-get install, ${describe(still)} still not on PATH; ${advice}`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = ensureTools();
}
