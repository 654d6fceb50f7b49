export { PgpError } from './errors.js';
export {
  checkDetached,
  parseDetachedSignature,
  parseKeyBlock,
  type DetachedCheck,
  type KeyBlock,
} from './key-block.js';
export { parsePublicKey, type PublicKey } from './public-key.js';
export type { SignaturePacket } from './signature-packet.js';
export { hashName } from './verify-signature.js';
