// Prints one closing line for the whole run: "tests: N passed, N failed" (vitest + Playwright).
import { existsSync, readFileSync } from 'node:fs';

const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null);
let passed = 0;
let failed = 0;
for (const file of ['test-results/vitest.json', 'test-results/vitest-scale.json']) {
  const unit = read(file);
  if (unit) {
    passed += unit.numPassedTests;
    failed += unit.numFailedTests;
  } else failed += 1;
}
const e2e = read('test-results/e2e.json');
if (e2e) {
  passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
  failed += e2e.stats.unexpected;
} else failed += 1;
console.log(`tests: ${passed} passed, ${failed} failed`);
