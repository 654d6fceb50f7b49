/**
 * A throw-away Sigstore-style trust domain for tests: a root CA, a timestamp authority and
 * Fulcio-like leaf certificates made with the `openssl` CLI, and DSSE bundles signed with them.
 * Real Fulcio cannot sign for the simulator's repositories, so tests verify against this domain's
 * trusted root instead of the embedded ones (see src/trust/provenance/test-hooks.ts).
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a leaf certificate says about the build. */
export interface LeafIdentity {
  /** SAN URI, e.g. `https://github.com/o/r/.github/workflows/release.yml@refs/tags/v1`. */
  san: string;
  /** OIDC issuer extension (default GitHub Actions'). */
  issuer?: string | undefined;
  /** Source repository URI extension, e.g. `https://github.com/o/r`. */
  sourceRepository?: string | undefined;
  sourceCommit?: string | undefined;
  sourceRef?: string | undefined;
}

/** An in-toto statement to sign. */
export interface StatementSpec {
  predicateType: string;
  subject: { name?: string; digest: Record<string, string> }[];
  predicate?: unknown;
}

/** A test trust domain. */
export interface TestCa {
  /** Trusted-root JSON listing this domain's CA and TSA. */
  trustedRoot: Record<string, unknown>;
  /** Path of the trusted root written to disk (for APPIMAGE_KEEPER_TEST_TRUSTED_ROOT). */
  trustedRootFile: string;
  /** A serialized v0.3 bundle: the statement signed by a fresh leaf for `identity`, timestamped. */
  bundle(identity: LeafIdentity, statement: StatementSpec): Record<string, unknown>;
  dispose(): void;
}

const OPENSSL_TIMEOUT = 20_000;

function openssl(dir: string, args: string[], input?: Buffer): Buffer {
  return execFileSync('openssl', args, {
    cwd: dir,
    timeout: OPENSSL_TIMEOUT,
    input,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function derOf(dir: string, pem: string): string {
  return openssl(dir, ['x509', '-in', pem, '-outform', 'DER']).toString('base64');
}

/** Creates a CA and a TSA in a temp dir (needs the `openssl` CLI). */
export function createTestCa(name = 'appimage-keeper test'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'ak-test-ca-'));
  const ecKey = (file: string): void => {
    openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file]);
  };
  ecKey('root.key');
  writeFileSync(
    join(dir, 'root.cnf'),
    `[req]\ndistinguished_name=dn\nprompt=no\n[dn]\nO=${name}\nCN=${name} root\n[ext]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n`,
  );
  openssl(dir, [
    'req',
    '-new',
    '-x509',
    '-key',
    'root.key',
    '-out',
    'root.pem',
    '-days',
    '3650',
    '-config',
    'root.cnf',
    '-extensions',
    'ext',
    '-set_serial',
    '1',
  ]);
  ecKey('tsa.key');
  writeFileSync(
    join(dir, 'tsa.cnf'),
    [
      '[req]',
      'distinguished_name=dn',
      'prompt=no',
      '[dn]',
      `O=${name}`,
      `CN=${name} timestamping`,
      '[ext]',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=critical,timeStamping',
      '[tsa]',
      'default_tsa=tsa_config',
      '[tsa_config]',
      `serial=${join(dir, 'tsa.serial')}`,
      'crypto_device=builtin',
      'signer_digest=sha256',
      'default_policy=1.2.3.4.1',
      'digests=sha256',
      'accuracy=secs:1',
      'ordering=no',
      'tsa_name=no',
      'ess_cert_id_chain=no',
      'ess_cert_id_alg=sha256',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'tsa.serial'), '01\n');
  openssl(dir, ['req', '-new', '-key', 'tsa.key', '-out', 'tsa.csr', '-config', 'tsa.cnf']);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-set_serial',
    '2',
    '-days',
    '3650',
    '-out',
    'tsa.pem',
    '-extfile',
    'tsa.cnf',
    '-extensions',
    'ext',
  ]);
  const root = derOf(dir, 'root.pem');
  const tsa = derOf(dir, 'tsa.pem');
  const validFor = { start: '2000-01-01T00:00:00Z' };
  const subject = { organization: name, commonName: `${name} root` };
  const trustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    ctlogs: [],
    certificateAuthorities: [
      { subject, uri: 'https://ca.test', certChain: { certificates: [{ rawBytes: root }] }, validFor },
    ],
    timestampAuthorities: [
      {
        subject,
        uri: 'https://tsa.test',
        certChain: { certificates: [{ rawBytes: tsa }, { rawBytes: root }] },
        validFor,
      },
    ],
  };
  const trustedRootFile = join(dir, 'trusted_root.json');
  writeFileSync(trustedRootFile, JSON.stringify(trustedRoot));
  let serial = 100;

  function leaf(identity: LeafIdentity): { certDer: Buffer; keyPem: string } {
    const n = ++serial;
    ecKey(`leaf${n}.key`);
    const utf8 = (oid: string, value: string | undefined): string[] =>
      value === undefined ? [] : [`${oid}=ASN1:UTF8String:${value}`];
    writeFileSync(
      join(dir, `leaf${n}.cnf`),
      [
        '[req]',
        'distinguished_name=dn',
        'prompt=no',
        '[dn]',
        `O=${name}`,
        '[ext]',
        'basicConstraints=critical,CA:FALSE',
        'keyUsage=critical,digitalSignature',
        'extendedKeyUsage=codeSigning',
        `subjectAltName=critical,URI:${identity.san}`,
        ...utf8('1.3.6.1.4.1.57264.1.8', identity.issuer ?? 'https://token.actions.githubusercontent.com'),
        ...utf8('1.3.6.1.4.1.57264.1.12', identity.sourceRepository),
        ...utf8('1.3.6.1.4.1.57264.1.13', identity.sourceCommit),
        ...utf8('1.3.6.1.4.1.57264.1.14', identity.sourceRef),
        '',
      ].join('\n'),
    );
    openssl(dir, ['req', '-new', '-key', `leaf${n}.key`, '-out', `leaf${n}.csr`, '-config', `leaf${n}.cnf`]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `leaf${n}.csr`,
      '-CA',
      'root.pem',
      '-CAkey',
      'root.key',
      '-set_serial',
      String(n),
      '-days',
      '2',
      '-out',
      `leaf${n}.pem`,
      '-extfile',
      `leaf${n}.cnf`,
      '-extensions',
      'ext',
    ]);
    return {
      certDer: openssl(dir, ['x509', '-in', `leaf${n}.pem`, '-outform', 'DER']),
      keyPem: readFileSync(join(dir, `leaf${n}.key`), 'utf8'),
    };
  }

  function timestamp(signature: Buffer): Buffer {
    const n = serial;
    writeFileSync(join(dir, `sig${n}.bin`), signature);
    openssl(dir, ['ts', '-query', '-data', `sig${n}.bin`, '-sha256', '-cert', '-out', `req${n}.tsq`]);
    openssl(dir, [
      'ts',
      '-reply',
      '-config',
      'tsa.cnf',
      '-queryfile',
      `req${n}.tsq`,
      '-inkey',
      'tsa.key',
      '-signer',
      'tsa.pem',
      '-out',
      `resp${n}.tsr`,
    ]);
    return readFileSync(join(dir, `resp${n}.tsr`));
  }

  return {
    trustedRoot,
    trustedRootFile,
    bundle(identity, statement) {
      const { certDer, keyPem } = leaf(identity);
      const payloadType = 'application/vnd.in-toto+json';
      const payload = Buffer.from(JSON.stringify({ _type: 'https://in-toto.io/Statement/v1', ...statement }));
      const pae = Buffer.concat([
        Buffer.from(`DSSEv1 ${payloadType.length} ${payloadType} ${payload.length} `),
        payload,
      ]);
      const sig = sign('sha256', pae, createPrivateKey(keyPem));
      return {
        mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
        verificationMaterial: {
          certificate: { rawBytes: certDer.toString('base64') },
          tlogEntries: [],
          timestampVerificationData: {
            rfc3161Timestamps: [{ signedTimestamp: timestamp(sig).toString('base64') }],
          },
        },
        dsseEnvelope: {
          payload: payload.toString('base64'),
          payloadType,
          signatures: [{ sig: sig.toString('base64'), keyid: '' }],
        },
      };
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
