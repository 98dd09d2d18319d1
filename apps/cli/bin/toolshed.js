#!/usr/bin/env node
// A committed shim so `node_modules/.bin/toolshed` exists from `pnpm install` on; it runs the
// bundle `pnpm build` writes (apps/cli/dist/bundle/, see scripts/bundle_cli.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  console.error('toolshed: the CLI is not built yet. Run `pnpm build` at the repository root first.');
  process.exit(2);
}
await import(main.href);
