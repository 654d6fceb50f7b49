/**
 * `doctor`'s `schedule` check: when `schedule install` wrote a timer for this config dir, the
 * program its service runs still exists, is executable, and answers `--version` with our version
 * in the environment the unit gives it (a Node version manager may have removed it since).
 */
import { access, constants, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Context } from '../../context/context.js';
import { shellQuote } from '../../core/shell-quote.js';
import { VERSION } from '../../core/version.js';
import { probeVersion } from '../schedule/probe-version.js';
import { readUnitFile } from '../schedule/read-unit-file.js';
import { readServiceCommands, UNIT_HEADER, type DropIn } from '../schedule/service-file.js';
import { isNodeForm, SYSTEMD_DEFAULT_PATH } from '../schedule/service-program.js';
import { unitLocation, type UnitLocation } from '../schedule/unit-location.js';
import { everyOfTimer } from '../schedule/units.js';
import { versionManagerOf } from '../schedule/version-manager-dir.js';
import { check, worst, type CheckStatus, type DoctorCheck } from './types.js';

const ID = 'schedule';

/** The command that writes the units again with the same config dir and interval. */
function reinstallHint(loc: UnitLocation, timerText: string): string {
  const every = everyOfTimer(timerText);
  const words = [
    'appimage-keeper',
    ...(loc.layout === 'system' ? ['--system'] : []),
    ...(loc.configDir ? ['--config-dir', loc.configDir] : []),
    'schedule',
    'install',
    ...(every ? ['--every', every] : []),
  ];
  return `run \`${words.map(shellQuote).join(' ')}\` to rewrite the unit`;
}

async function isFileWith(path: string, mode: number): Promise<'ok' | 'missing' | 'not a file' | 'denied'> {
  const st = await stat(path).catch(() => undefined);
  if (!st) return 'missing';
  if (!st.isFile()) return 'not a file';
  return access(path, mode).then(
    () => 'ok' as const,
    () => 'denied' as const,
  );
}

/** Checks one ExecStart command line; the message names what is wrong with it. */
async function checkCommand(
  argv: string[],
  unitPath: string | undefined,
  ctx: Context,
): Promise<{ status: CheckStatus; message: string }> {
  const program = isNodeForm(argv) ? argv.slice(0, 2) : argv.slice(0, 1);
  const shown = program.join(' ');
  const [file = '', script] = program;
  if (!isAbsolute(file))
    return { status: 'warn', message: `the timer runs "${file}", not an absolute path; not checked` };
  const exe = await isFileWith(file, constants.X_OK);
  if (exe === 'missing') return { status: 'fail', message: `the timer runs ${file}, which does not exist` };
  if (exe !== 'ok') {
    const what = exe === 'denied' ? 'is not executable' : 'is not a regular file';
    return { status: 'fail', message: `the timer runs ${file}, which ${what}` };
  }
  if (script !== undefined) {
    const readable = await isFileWith(script, constants.R_OK);
    if (readable !== 'ok') {
      const what = readable === 'missing' ? 'does not exist' : 'cannot be read';
      return { status: 'fail', message: `the timer runs the script ${script}, which ${what}` };
    }
  }
  const probe = await probeVersion(program, { ...ctx.env, PATH: unitPath ?? SYSTEMD_DEFAULT_PATH });
  if (!probe.ok)
    return { status: 'fail', message: `the timer's command ${shown} does not run: ${probe.detail}` };
  if (probe.version !== VERSION) {
    return {
      status: 'warn',
      message: `the timer runs ${shown}, which says it is version "${probe.version}"; this is ${VERSION}`,
    };
  }
  const manager = program.map((p) => versionManagerOf(p, ctx.env)).find(Boolean);
  if (manager) {
    return {
      status: 'warn',
      message: `the timer runs ${shown}, inside ${manager}'s directory for one Node version: switching or removing that version breaks it`,
    };
  }
  return { status: 'ok', message: `the timer runs ${shown} (${VERSION})` };
}

/** More drop-ins than this for one service is not a setup we check. */
const MAX_DROP_INS = 64;

/** The service's drop-in files (`*.conf` in its `.d` folder), in name order, read as untrusted. */
async function readDropIns(
  dir: string,
): Promise<{ ok: true; files: DropIn[] } | { ok: false; reason: string }> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const confs = names.filter((n) => n.endsWith('.conf')).sort();
  if (confs.length > MAX_DROP_INS) return { ok: false, reason: `more than ${MAX_DROP_INS} files in ${dir}` };
  const files: DropIn[] = [];
  for (const name of confs) {
    const file = join(dir, name);
    const read = readUnitFile(file);
    if (read.kind === 'unreadable') return { ok: false, reason: `${file}: ${read.reason}` };
    if (read.kind === 'text') files.push({ file, text: read.text });
  }
  return { ok: true, files };
}

/** One check of the installed timer's command; `ok` when no timer of ours is installed. */
export async function scheduleCheck(ctx: Context): Promise<DoctorCheck> {
  const loc = unitLocation(ctx.paths, ctx.env);
  const timer = readUnitFile(loc.timerPath);
  if (timer.kind === 'missing') return check(ID, 'ok', 'no timer installed');
  if (timer.kind === 'unreadable') {
    return check(
      ID,
      'warn',
      `cannot read ${loc.timerPath}: ${timer.reason}`,
      'check the file, or run `appimage-keeper schedule remove`',
    );
  }
  if (!timer.text.startsWith(UNIT_HEADER)) {
    return check(ID, 'ok', `${loc.timerPath} was not written by schedule install; not checked`);
  }
  const hint = reinstallHint(loc, timer.text);
  const service = readUnitFile(loc.servicePath);
  if (service.kind === 'missing')
    return check(ID, 'fail', `the timer has no service: ${loc.servicePath} is missing`, hint);
  if (service.kind === 'unreadable')
    return check(ID, 'fail', `cannot read ${loc.servicePath}: ${service.reason}`, hint);
  if (!service.text.startsWith(UNIT_HEADER)) {
    return check(ID, 'ok', `${loc.servicePath} was not written by schedule install; not checked`);
  }
  const dropIns = await readDropIns(`${loc.servicePath}.d`);
  if (!dropIns.ok) return check(ID, 'warn', `cannot check the service's drop-ins: ${dropIns.reason}`, hint);
  const parsed = readServiceCommands(service.text, dropIns.files);
  if (!parsed.ok) return check(ID, 'warn', `cannot check ${loc.servicePath}: ${parsed.reason}`, hint);
  const results = await Promise.all(parsed.commands.map((argv) => checkCommand(argv, parsed.path, ctx)));
  const status = worst(results.map((r) => r.status));
  return check(ID, status, results.map((r) => r.message).join('; '), status === 'ok' ? undefined : hint);
}
