/**
 * The certificate authorities a run trusts: node's bundled roots plus the system's store
 * (SSL_CERT_FILE, SSL_CERT_DIR, the distribution bundle Go's crypto/x509 reads on Linux) plus the
 * `ca_file` of config.yml. Read once per run, and only when the first TLS connection is made, so a
 * run that talks plain HTTP (or nothing) never touches these files.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, constants as fsc } from 'node:fs';
import { join } from 'node:path';
import type { X509Certificate as X509 } from 'node:crypto';
import type * as Tls from 'node:tls';
import type { SecureContext } from 'node:tls';

// node:tls and node:crypto load on the first TLS connection, not with every command (`list` and
// `validate` never connect): process.getBuiltinModule keeps these helpers synchronous.
const tls = (): typeof Tls => process.getBuiltinModule('node:tls');
const rootCertificates = (): readonly string[] => tls().rootCertificates;
const createSecureContext = (...args: Parameters<typeof Tls.createSecureContext>): SecureContext =>
  tls().createSecureContext(...args);
const X509Certificate = (pem: string): X509 =>
  new (process.getBuiltinModule('node:crypto').X509Certificate)(pem);

/** The distribution bundles, in Go's order (crypto/x509 root_linux.go); the first one found is used. */
export const SYSTEM_BUNDLES: readonly string[] = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Gentoo, Arch
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL 6
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/tls/cacert.pem', // OpenELEC
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem', // CentOS, RHEL 7
  '/etc/ssl/cert.pem', // Alpine
];

// A distribution bundle is ~220 KiB; anything past this is not a CA bundle.
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
const MAX_DIR_FILES = 2_000;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** One place certificates were read from, for `doctor --online`. */
export interface CaSource {
  /** `node`, `SSL_CERT_FILE`, `SSL_CERT_DIR`, `system` or `ca_file`. */
  kind: string;
  /** The file or folder; empty for node's bundled roots. */
  path: string;
  certificates: number;
  /** Why the source was not used (unreadable, too large, no certificate). */
  problem?: string | undefined;
}

/** The trust store of one run. */
export interface CaStore {
  /** Sets config.yml's `ca_file` (before the first TLS connection). */
  setCaFile(file: string | undefined): void;
  /** The TLS context every https connection of the run uses; built on first call. */
  secureContext(): SecureContext;
  /** Where the certificates came from (reads the files if no connection did yet). */
  sources(): CaSource[];
}

/** A store reading the system's certificates named by `env` (SSL_CERT_FILE, SSL_CERT_DIR). */
export function createCaStore(env: NodeJS.ProcessEnv, bundles: readonly string[] = SYSTEM_BUNDLES): CaStore {
  let caFile: string | undefined;
  let loaded: { context: SecureContext; sources: CaSource[] } | undefined;
  const load = (): { context: SecureContext; sources: CaSource[] } => {
    if (loaded) return loaded;
    const { pems, sources } = collectCertificates(env, bundles, caFile);
    loaded = { context: trustContext(pems), sources };
    return loaded;
  };
  return {
    setCaFile(file) {
      caFile = file;
    },
    secureContext: () => load().context,
    sources: () => load().sources,
  };
}

// Node's own roots; a system bundle repeats most of them, and each certificate given as `ca` costs
// parsing on a loaded machine (~0.5 ms each), so only the ones node lacks are added.
function pemKey(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----|\s+/g, '');
}

/** The certificates of `pems` that are not node's bundled roots, each once. */
export function extraCertificates(pems: readonly string[]): string[] {
  const seen = new Set(rootCertificates().map(pemKey));
  const out: string[] = [];
  for (const pem of pems) {
    const key = pemKey(pem);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(pem);
  }
  return out;
}

// With nothing beyond node's roots, node's default context (its static root store) is used as is.
// One malformed block must not cost the whole store (or every connection): drop what X509 rejects.
function trustContext(pems: string[]): SecureContext {
  const extra = extraCertificates(pems);
  if (extra.length === 0) return createSecureContext();
  try {
    return createSecureContext({ ca: [...rootCertificates(), ...extra] });
  } catch {
    const valid = extra.filter((pem) => {
      try {
        return X509Certificate(pem).ca;
      } catch {
        return false;
      }
    });
    return createSecureContext({ ca: [...rootCertificates(), ...valid] });
  }
}

/** Reads the PEM certificates of every configured source, bounded in size and count. */
export function collectCertificates(
  env: NodeJS.ProcessEnv,
  bundles: readonly string[],
  caFile: string | undefined,
): { pems: string[]; sources: CaSource[] } {
  const pems: string[] = [];
  const sources: CaSource[] = [{ kind: 'node', path: '', certificates: rootCertificates().length }];
  const budget = { left: MAX_TOTAL_BYTES };
  const add = (kind: string, path: string): boolean => {
    const read = readPemFile(path, budget);
    if ('problem' in read) {
      sources.push({ kind, path, certificates: 0, problem: read.problem });
      return false;
    }
    pems.push(...read.pems);
    sources.push({ kind, path, certificates: read.pems.length });
    return true;
  };
  // As Go: SSL_CERT_FILE replaces the distribution bundle, SSL_CERT_DIR adds a folder of PEM files.
  const certFile = env.SSL_CERT_FILE?.trim();
  if (certFile) add('SSL_CERT_FILE', certFile);
  else {
    const found = bundles.find((b) => readPemFile(b, { left: 0 }).problem !== 'missing');
    if (found) add('system', found);
  }
  for (const dir of (env.SSL_CERT_DIR ?? '').split(':').filter(Boolean)) {
    const before = pems.length;
    let names: string[];
    try {
      names = readdirSync(dir).slice(0, MAX_DIR_FILES).sort();
    } catch (err) {
      sources.push({ kind: 'SSL_CERT_DIR', path: dir, certificates: 0, problem: codeOf(err) });
      continue;
    }
    for (const name of names) {
      const read = readPemFile(join(dir, name), budget);
      if ('pems' in read) pems.push(...read.pems);
    }
    sources.push({ kind: 'SSL_CERT_DIR', path: dir, certificates: pems.length - before });
  }
  if (caFile) add('ca_file', caFile);
  // Node adds these to its default context at start, but a context given `ca` (ours, once the system
  // adds anything) starts from the bundled roots alone: read them again so they keep working.
  const nodeExtra = env.NODE_EXTRA_CA_CERTS?.trim();
  if (nodeExtra && !sources.some((source) => source.path === nodeExtra))
    add('NODE_EXTRA_CA_CERTS', nodeExtra);
  return { pems, sources };
}

/**
 * The certificates of one PEM file: read through a descriptor (symlinks are how distributions
 * lay these out), refused past 8 MiB or the run's budget. A zero budget only probes existence.
 */
function readPemFile(
  path: string,
  budget: { left: number },
): { pems: string[]; problem?: undefined } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(path, fsc.O_RDONLY | fsc.O_NONBLOCK);
  } catch (err) {
    const code = codeOf(err);
    return { problem: code === 'ENOENT' ? 'missing' : code };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { problem: 'not a regular file' };
    if (budget.left === 0) return { pems: [] };
    if (st.size > MAX_FILE_BYTES || st.size > budget.left)
      return { problem: `larger than ${MAX_FILE_BYTES} bytes` };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    budget.left -= off;
    const pems = buf.subarray(0, off).toString('latin1').match(PEM_BLOCK) ?? [];
    return pems.length > 0 ? { pems } : { problem: 'no PEM certificate in it' };
  } catch (err) {
    return { problem: codeOf(err) };
  } finally {
    closeSync(fd);
  }
}

function codeOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : String(err);
}
