/** An in-memory FileIO for manifest tests that counts how it was read. */
import { fail } from '../../../src/errors/index.js';
import type { DirEntry, FileIO, FileStat } from '../../../src/storage/index.js';

export class MemoryIO implements FileIO {
  readonly files = new Map<string, Buffer>();
  readFiles = 0;
  rangeReads = 0;
  bytesRead = 0;

  put(location: string, bytes: Buffer): string {
    this.files.set(location, bytes);
    return location;
  }

  private get(location: string): Buffer {
    const b = this.files.get(location);
    if (!b) throw fail('FILE_NOT_FOUND', `File not found: ${location}`);
    return b;
  }

  async readFile(location: string): Promise<Buffer> {
    const b = this.get(location);
    this.readFiles += 1;
    this.bytesRead += b.length;
    return b;
  }

  async readRange(location: string, offset: number, length: number): Promise<Buffer> {
    const b = this.get(location).subarray(offset, offset + length);
    this.rangeReads += 1;
    this.bytesRead += b.length;
    return b;
  }

  async stat(location: string): Promise<FileStat> {
    return { size: this.get(location).length, mtimeMs: 0 };
  }

  async exists(location: string): Promise<boolean> {
    return this.files.has(location);
  }

  async list(_location: string, _names?: readonly string[]): Promise<DirEntry[]> {
    return [];
  }
}
