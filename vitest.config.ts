import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every workspace. The `@toolshed/source` condition makes `@toolshed/*` imports
// resolve to each package's `src/mod.ts`, so tests never run against a stale `dist/`.
export default defineConfig({
  resolve: { conditions: ['@toolshed/source'] },
  ssr: { resolve: { conditions: ['@toolshed/source'] } },
  test: {
    include: [
      'packages/*/src/**/*_test.ts',
      'apps/*/src/**/*_test.ts',
      'bench/src/**/*_test.ts',
      'scripts/**/*_test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // One worker process runs many test files: a fresh process per file cost about a second each on
    // two cores (258 files: a fifth of the whole run). What a file leaves in the process (its
    // environment, working directory, spies, fake timers) is put back after it by the setup file.
    isolate: false,
    // A worker per core (vitest's default leaves one out: one worker on two cores). Most files wait
    // on child processes, servers and the disk: on two cores two workers took 283-328 s against 501-533 s.
    maxWorkers: os.availableParallelism(),
    setupFiles: ['./vitest.setup.ts'],
  },
});
