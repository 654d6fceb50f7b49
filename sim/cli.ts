/**
 * Manual entry point: `npx tsx sim/cli.ts [--port N] [--second-port N] [--admin-port N]
 * [--fixture FILE.json] [--hub-api-prefix /api/v3] [--json] [--log]`. Prints the main URL on the
 * first line of stdout and runs until SIGINT/SIGTERM. `sim/cli.ts publish --admin URL --repo O/R
 * --tag T FILE` publishes a release on a running sim (see docs/simulator.md).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { startAdmin } from './admin.js';
import { loadFixture } from './fixture.js';
import { startSim } from './start-sim.js';

const USAGE = [
  'usage: tsx sim/cli.ts [--port N] [--second-port N] [--admin-port N] [--fixture FILE.json] [--hub-api-prefix P] [--json] [--log]',
  '       tsx sim/cli.ts publish --admin URL --repo OWNER/REPO --tag TAG [--name ASSET] FILE',
  '',
].join('\n');

/** `publish`: sends FILE to a running sim's admin endpoint as the newest release of a repository. */
async function publishCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      admin: { type: 'string', default: process.env.SIM_ADMIN_URL },
      repo: { type: 'string' },
      tag: { type: 'string' },
      name: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [file, ...extra] = positionals;
  if (!values.admin || !values.repo || !values.tag || !file || extra.length) throw new Error(USAGE.trim());
  const admin = new URL(values.admin);
  if (admin.hostname !== '127.0.0.1' && admin.hostname !== 'localhost') {
    throw new Error(`--admin must be a loopback URL, not ${values.admin}`);
  }
  const query = new URLSearchParams({
    repo: values.repo,
    tag: values.tag,
    name: values.name ?? basename(file),
  });
  const res = await fetch(new URL(`/publish?${query.toString()}`, admin), {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: await readFile(file),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`the sim answered HTTP ${res.status}: ${text.trim()}`);
  process.stdout.write(text);
}

function port(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${flag}: not a port: ${value}`);
  return n;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'publish') return publishCommand(argv.slice(1));
  const { values } = parseArgs({
    args: argv,
    options: {
      'admin-port': { type: 'string' },
      port: { type: 'string' },
      'second-port': { type: 'string' },
      fixture: { type: 'string' },
      'hub-api-prefix': { type: 'string' },
      json: { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const sim = await startSim({
    port: port(values.port, '--port'),
    secondPort: port(values['second-port'], '--second-port'),
    hubApiPrefix: values['hub-api-prefix'],
    onRequest: values.log ? (r) => process.stderr.write(`${r.origin} ${r.method} ${r.path}\n`) : undefined,
  });
  let admin;
  try {
    if (values.fixture) await loadFixture(sim, values.fixture);
    admin = await startAdmin(sim, port(values['admin-port'], '--admin-port'));
  } catch (err) {
    await sim.stop();
    throw err;
  }
  const info = {
    url: sim.url,
    secondUrl: sim.secondUrl,
    hubApiUrl: sim.hubApiUrl,
    labApiUrl: sim.labApiUrl,
    proxyPrefix: sim.proxyPrefix(),
    adminUrl: admin.url,
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    process.stdout.write(
      `${sim.url}\nsecond  ${info.secondUrl}\nhub api ${info.hubApiUrl}\nlab api ${info.labApiUrl}\nproxy   ${info.proxyPrefix}\nadmin   ${info.adminUrl}\n`,
    );
  }
  process.stderr.write('sim running; Ctrl-C to stop\n');
  // npm, tsx and the terminal may each pass the same Ctrl-C on: the first signal stops the servers,
  // the copies are ignored, and servers that do not close within 5 s end the process anyway.
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 5000).unref();
    void Promise.all([sim.stop(), admin.stop()]).then(() => {
      process.stderr.write('sim stopped\n');
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`sim: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
