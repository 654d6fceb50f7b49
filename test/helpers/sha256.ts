import { createHash } from 'node:crypto';

/** Hex SHA-256 of a buffer or UTF-8 string. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
