#!/usr/bin/env node
// Runs the compiled build (dist/, written by `npm run build`, which `npm ci` and `npm pack` run):
// no TypeScript loader in the server process. Development runs the sources: `npm run dev`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(`icefront: ${fileURLToPath(cli)} is missing: run \`npm run build\` (npm ci runs it) first\n`);
  process.exit(1);
}
await import(cli.href);
