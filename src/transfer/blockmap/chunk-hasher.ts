import { createBLAKE2b, type IHasher } from 'hash-wasm';

/**
 * The checksum electron-builder stores per chunk: base64 of BLAKE2b with an 18-byte (144-bit)
 * output. One hash-wasm instance serves every chunk; digests are synchronous once it exists.
 */
export class ChunkHasher {
  private constructor(private readonly blake: IHasher) {}

  /** Creates a hasher (instantiates the WebAssembly module). */
  static async create(): Promise<ChunkHasher> {
    return new ChunkHasher(await createBLAKE2b(144));
  }

  /** The block map checksum of `data`. */
  checksum(data: Uint8Array): string {
    this.blake.init();
    this.blake.update(data);
    return Buffer.from(this.blake.digest('binary')).toString('base64');
  }
}
