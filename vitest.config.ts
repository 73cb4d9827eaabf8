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
  },
});
