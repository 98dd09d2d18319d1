// Run before each test file. Test files share their worker process (`isolate: false` in
// vitest.config.ts), so what one file leaves in the process must not reach the next: the
// environment, the working directory and spies are put back as they were when the file started.
import { rmSync } from 'node:fs';
import { afterAll, vi } from 'vitest';

const environment = { ...process.env };
const cwd = process.cwd();
/** Temporary folders a test helper made for this file (`Symbol.for('toolshed.test.tempDirs')`), removed after it. */
const TEMP_DIRS = Symbol.for('toolshed.test.tempDirs');

afterAll(() => {
  const made = (globalThis as Record<symbol, Set<string> | undefined>)[TEMP_DIRS];
  for (const dir of made ?? []) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  made?.clear();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  if (process.cwd() !== cwd) process.chdir(cwd);
  vi.restoreAllMocks();
  vi.useRealTimers();
});
