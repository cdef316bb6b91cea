#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npm ci` is the only build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
