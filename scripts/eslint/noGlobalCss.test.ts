import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import blotter from './noGlobalCss.js';

const cwd = '/repo';
const lint = (code: string, filename = '/repo/src-renderer/views/AreasView.tsx') =>
  new Linter({ cwd })
    .verify(
      code,
      {
        files: ['**/*.ts', '**/*.tsx'],
        plugins: { blotter },
        languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
        rules: {
          'blotter/no-global-css': [
            'error',
            { stylesDir: 'src-renderer/styles', allowPackages: ['leaflet/dist/leaflet.css'] },
          ],
        },
      },
      { filename },
    )
    .map((m) => m.message);

describe('blotter/no-global-css', () => {
  it('refuses a feature importing a plain stylesheet (the areas/history clash)', () => {
    expect(lint("import '../areas/areas.css';")).toHaveLength(1);
    expect(lint("import '../history/history.css';")[0]).toMatch(/rename it to \*\.module\.css/);
    expect(lint("await import('./x.css');", '/repo/src-renderer/map/drawing.ts')).toHaveLength(1);
  });

  it('allows CSS modules, the shared styles folder and listed package sheets only', () => {
    expect(lint("import styles from '../areas/areas.module.css';")).toEqual([]);
    expect(lint("import './styles/app.css';", '/repo/src-renderer/main.tsx')).toEqual([]);
    expect(lint("import '../styles/controls.css';")).toEqual([]);
    expect(lint("import 'leaflet/dist/leaflet.css';")).toEqual([]);
    expect(lint("import 'some-widget/dist/widget.css';")[0]).toMatch(/not on the list/);
    expect(lint("import '../styles/nested/x.css';")).toHaveLength(1);
  });
});
