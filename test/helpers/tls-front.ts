/**
 * TLS in front of the loopback sim, for tests and benchmarks: a throw-away self-signed certificate
 * (openssl) for a name and 127.0.0.1, and a TLS server piping each connection to the sim's port.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

/** A running TLS front. */
export interface TlsFront {
  origin: string;
  /** The certificate to trust (NODE_EXTRA_CA_CERTS). */
  certFile: string;
  stop(): Promise<void>;
}

/**
 * Starts a TLS front for `127.0.0.1:<port>`, its certificate naming `name` (default `localhost`;
 * `forge.test` for a name only a proxy resolves).
 */
export async function startTlsFront(port: number, name = 'localhost'): Promise<TlsFront> {
  const dir = mkdtempSync(join(tmpdir(), 'ak-tls-front-'));
  const key = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
    ].concat([
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name},IP:127.0.0.1`,
    ]),
    { stdio: 'ignore' },
  );
  const sockets = new Set<Socket>();
  const server = createServer({ key: readFileSync(key), cert: readFileSync(certFile) }, (socket) => {
    const up = connect(port, '127.0.0.1');
    sockets.add(socket).add(up);
    socket.pipe(up).pipe(socket);
    socket.on('error', () => up.destroy());
    up.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const frontPort = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `https://${name}:${frontPort}`,
    certFile,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
