import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import blotter, { circles, folderGraph } from './folderCycles.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** A source tree in a temp folder: { 'a/x.ts': code, … }. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
  roots.push(root);
  for (const [name, code] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), code);
  }
  return root;
}

function lint(root: string, name: string): string[] {
  const filename = path.join(root, name);
  return new Linter({ cwd: root })
    .verify(
      fs.readFileSync(filename, 'utf8'),
      {
        files: ['**/*.ts'],
        plugins: { blotter },
        languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
        rules: { 'blotter/no-folder-cycle': ['error', { root: '.' }] },
      },
      { filename },
    )
    .map((m) => m.message);
}

describe('blotter/no-folder-cycle', () => {
  it('reports each import that closes a circle among folders, naming the way back', () => {
    const root = tree({
      'sync/run.ts': "import { evaluate } from '../alerts/evaluate';\nexport const run = evaluate;",
      'alerts/evaluate.ts': "import { areas } from '../query/areas';\nexport const evaluate = areas;",
      'query/areas.ts': "import { limit } from '../sync/constants';\nexport const areas = limit;",
      'sync/constants.ts': 'export const limit = 1;',
      'store/db.ts': 'export const db = 1;',
      'query/count.ts': "import { db } from '../store/db';\nexport const count = db;",
    });
    expect(circles(folderGraph(root))).toEqual([['alerts', 'query', 'sync']]);
    const found = lint(root, 'sync/run.ts');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/sync\/ import alerts\/.*alerts → query → sync/);
    expect(lint(root, 'query/areas.ts')).toHaveLength(1);
    expect(lint(root, 'query/count.ts')).toEqual([]); // store is outside the circle
  });

  it('lets type-only imports, tests, test helpers and the composition root cross', () => {
    const root = tree({
      'sync/run.ts': "import type { Rule } from '../alerts/rule';\nexport const run = 1;",
      'sync/jobs.ts': "import { type Rule, type Kind } from '../alerts/rule';\nexport const jobs = 1;",
      'sync/reexport.ts': "export type { Rule } from '../alerts/rule';",
      'sync/run.test.ts': "import { rule } from '../alerts/rule';\nrule;",
      'sync/runTesting.ts': "import { rule } from '../alerts/rule';\nexport const t = rule;",
      'alerts/rule.ts':
        "import { run } from '../sync/run';\nexport type Rule = 1;\nexport type Kind = 2;\nexport const rule = run;",
      'services.ts':
        "import { run } from './sync/run';\nimport { rule } from './alerts/rule';\nexport { run, rule };",
    });
    expect(circles(folderGraph(root))).toEqual([]);
    for (const name of ['sync/run.ts', 'sync/jobs.ts', 'sync/reexport.ts', 'alerts/rule.ts', 'services.ts'])
      expect(lint(root, name)).toEqual([]);
  });

  it('counts dynamic imports and re-exports as runtime edges', () => {
    const root = tree({
      'api/get.ts': "export async function get() { return (await import('../sync/limiter')).limit; }",
      'sync/limiter.ts': "export { get } from '../api/get';\nexport const limit = 1;",
    });
    expect(circles(folderGraph(root))).toEqual([['api', 'sync']]);
    expect(lint(root, 'api/get.ts')).toHaveLength(1);
    expect(lint(root, 'sync/limiter.ts')).toHaveLength(1);
  });
});
