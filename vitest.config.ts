import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'scripts/**/*.test.ts'],
    // Scale tests (many processes against one server, timing-sensitive) run on their own, after
    // the rest, so the suite's own parallel load is not what they measure: vitest.scale.config.ts.
    exclude: [...configDefaults.exclude, '**/*.scale.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time even on 2 cores (vitest's default there is one: cores − 1). Most of the
    // slow files wait rather than compute — a rate limit's minute, a server's Retry-After, a child
    // process's start — so a second file runs in those waits: cliConcurrency.test.ts took 80 s
    // with 12 s of CPU. On more cores, vitest's own default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
