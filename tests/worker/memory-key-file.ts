import type { KeyFile } from '../../worker/base/at-rest-key.ts';

/**
 * The at-rest key file as the origin private file system keeps it in a browser (Node has none): its
 * bytes, and how often it was shredded. Each read answers a copy, as a file read does (the reader
 * zeroes its copy once the key is imported).
 */
export class MemoryKeyFile implements KeyFile {
  private bytes: Uint8Array | null = null;
  /** Shreds asked for, whether or not a key was there. */
  shreds = 0;
  reads = 0;

  async read(): Promise<Uint8Array | null> {
    this.reads += 1;
    return this.bytes ? this.bytes.slice() : null;
  }

  async create(bytes: Uint8Array): Promise<Uint8Array> {
    this.bytes ??= bytes.slice();
    return this.bytes.slice();
  }

  async shred(): Promise<void> {
    this.shreds += 1;
    this.bytes?.fill(0);
    this.bytes = null;
  }

  /** Whether a key is kept (made and not shredded since). */
  get holdsKey(): boolean {
    return this.bytes !== null;
  }
}
