/**
 * Manual entry point: `npx tsx sim/cli.ts [--port N] [--second-port N] [--fixture FILE.json]
 * [--hub-api-prefix /api/v3] [--json] [--log]`. Prints the main URL on the first line of stdout
 * and runs until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { loadFixture } from './fixture.js';
import { startSim } from './start-sim.js';

function port(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${flag}: not a port: ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
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
    process.stdout.write(
      'usage: tsx sim/cli.ts [--port N] [--second-port N] [--fixture FILE.json] [--hub-api-prefix P] [--json] [--log]\n',
    );
    return;
  }
  const sim = await startSim({
    port: port(values.port, '--port'),
    secondPort: port(values['second-port'], '--second-port'),
    hubApiPrefix: values['hub-api-prefix'],
    onRequest: values.log ? (r) => process.stderr.write(`${r.origin} ${r.method} ${r.path}\n`) : undefined,
  });
  try {
    if (values.fixture) await loadFixture(sim, values.fixture);
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
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    process.stdout.write(
      `${sim.url}\nsecond  ${info.secondUrl}\nhub api ${info.hubApiUrl}\nlab api ${info.labApiUrl}\nproxy   ${info.proxyPrefix}\n`,
    );
  }
  process.stderr.write('sim running; Ctrl-C to stop\n');
  const shutdown = (): void => {
    void sim.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`sim: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
