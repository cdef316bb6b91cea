/** Writes table files under a local directory, creating folders as needed. */
import fs from 'node:fs';
import path from 'node:path';
import type { TableSink } from './model.js';

export function fsSink(root: string): TableSink {
  const made = new Set<string>();
  return {
    write(relativePath: string, bytes: Uint8Array): void {
      const target = path.join(root, relativePath);
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      fs.writeFileSync(target, bytes);
    },
  };
}
