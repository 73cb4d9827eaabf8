/** The bulletin's headline: the engine's sentences (at most five), written from the figures. */
import type { ReportBulletin } from '../../src-shared/bulletin';
import styles from './report.module.css';

export function Headline({ bulletin }: { bulletin: ReportBulletin }) {
  return (
    <section className={styles.headline} data-testid="report-headline" aria-label="Headline">
      {bulletin.headline.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </section>
  );
}
