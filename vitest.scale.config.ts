import { defineConfig } from 'vitest/config';

/** The scale tests, run alone after the unit tests by scripts/test.sh (see vitest.config.ts). */
export default defineConfig({
  test: {
    include: ['src-*/**/*.scale.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
