// Run before each test file. Test files share their worker process (`isolate: false` in
// vitest.config.ts), so what one file leaves in the process must not reach the next: the
// environment, the working directory and spies are put back as they were when the file started.
import { afterAll, vi } from 'vitest';

const environment = { ...process.env };
const cwd = process.cwd();

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  if (process.cwd() !== cwd) process.chdir(cwd);
  vi.restoreAllMocks();
  vi.useRealTimers();
});
