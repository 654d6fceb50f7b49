/**
 * Certificate failures: node reports them as socket errors whose code is an OpenSSL verify code;
 * they become one line naming the host and the three ways to trust its CA, never retried (the
 * same certificate fails the same way).
 */

// OpenSSL's verify results (X509_V_ERR_* without the prefix) and node's own host-name check.
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether a socket error's code says the server's certificate was not accepted. */
export function isCertificateCode(code: unknown): boolean {
  return typeof code === 'string' && CERTIFICATE_CODES.has(code);
}

/**
 * The one-line message of a certificate failure: the host, node's reason with its code, and the
 * fix. `reason` is the transport's text ("unable to verify the first certificate (CODE)").
 */
export function certificateMessage(url: string, reason: string): string {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // A URL that does not parse never reached a socket; keep the text as given.
  }
  return (
    `the certificate of ${host} is not trusted: ${reason}; if it comes from a private or company CA, ` +
    'name that CA in config.yml `ca_file` or SSL_CERT_FILE, or add it to the system store ' +
    '(update-ca-certificates)'
  );
}
