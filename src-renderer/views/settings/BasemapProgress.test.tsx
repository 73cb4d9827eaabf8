import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BasemapProgress } from './BasemapProgress';

const p = { tilesDone: 500, tilesTotal: 2015, bytesDone: 12e6, bytesTotal: 48e6, secondsLeft: 41.2 };

describe('the offline streets’ download as it goes (Settings › Map and the areas’ offer)', () => {
  it('shows a bar and the words while it runs, with the caller’s buttons below', () => {
    const html = renderToStaticMarkup(
      <BasemapProgress progress={{ ...p, state: 'running' }} label="Basemap download" testId="t">
        <button type="button">Cancel download</button>
      </BasemapProgress>,
    );
    expect(html).toContain('<progress max="2015" value="500" aria-label="Basemap download">');
    expect(html).toContain('500 of 2,015 tiles · 12.0 MB of 48.0 MB · about 42 s left');
    expect(html).toMatch(/data-state="running".*Cancel download/);
  });

  it('says a failure as an error, without a bar', () => {
    const html = renderToStaticMarkup(
      <BasemapProgress
        progress={{ ...p, state: 'failed', message: 'The source changed.' }}
        label="Basemap download"
        testId="t"
      />,
    );
    expect(html).not.toContain('<progress');
    expect(html).toContain('<p class="message message-error">The source changed.</p>');
  });
});
