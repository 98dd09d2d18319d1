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
  },
});
