/**
 * The first launch: two ways in. "Use my API key" (base URL, plan, key, one test request) for
 * someone with a key; "Explore with demo data" for anyone, in seconds: synthetic incidents from
 * Blotter's built-in simulator, in a separate data folder, removable in one click. And a way past.
 */
import { useId, useState } from 'react';
import { DEMO_LABEL, type DemoStatus } from '../../src-shared/firstRun';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';
import type { Client } from '../bridge/client';
import { errorText } from '../text/errorText';
import { KeyForm } from './KeyForm';
import styles from './welcome.module.css';

export type WelcomeScreenProps = {
  client: Client;
  settings: SettingsView;
  keyStatus: KeyStatus;
  demo: DemoStatus | null;
  onStartDemo: () => Promise<void>;
  onConnected: () => void;
  onSkip: () => void;
  onRecheckKeychain: () => void;
  /** Opens the key form at once (tests, and a return from Settings). */
  initialPath?: 'key' | null;
};

export function WelcomeScreen(props: WelcomeScreenProps) {
  const { demo } = props;
  const headingId = useId();
  const [path, setPath] = useState<'key' | null>(props.initialPath ?? null);
  const [starting, setStarting] = useState(false);
  const [demoError, setDemoError] = useState<string | null>(null);

  const explore = () => {
    setStarting(true);
    setDemoError(null);
    props.onStartDemo().catch((error: unknown) => {
      setDemoError(errorText(error));
      setStarting(false);
    });
  };

  return (
    <section className={`view ${styles.welcome}`} aria-labelledby={headingId} data-testid="welcome">
      <header className="view-header">
        <h1 id={headingId} tabIndex={-1}>
          Welcome to Blotter
        </h1>
        <p className="view-intro">
          Blotter keeps a local copy of the crime incidents in the areas you watch, from the Crime Incident
          Data API, so you can map, filter, chart and export them — with or without a network.
        </p>
      </header>

      <div className={styles.welcomePaths}>
        <div className={`card ${styles.welcomePath}`}>
          <h2>I have an API key</h2>
          <p>Connect to the API with the key and static IP your office registered with the API operator.</p>
          <button
            type="button"
            className={path === 'key' ? 'button' : 'button primary'}
            aria-expanded={path === 'key'}
            onClick={() => setPath(path === 'key' ? null : 'key')}
          >
            Use my API key
          </button>
        </div>
        {demo?.available !== false ? (
          <div className={`card ${styles.welcomePath}`}>
            <h2>Just looking</h2>
            <p>
              See Blotter at work in a minute on made-up incidents from its built-in simulator. The demo is
              kept apart from your own data and is labelled “{DEMO_LABEL}” everywhere; remove it in one click.
            </p>
            <button type="button" className="button primary" onClick={explore} disabled={starting}>
              {starting ? 'Starting the demo…' : 'Explore with demo data'}
            </button>
            <p className="message" role="status">
              {starting
                ? `Starting the simulator and a sync of a demo area over ${demo?.city ?? 'a city'}…`
                : ''}
            </p>
            {demoError ? (
              <p className="message message-error" role="alert">
                {demoError}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>

      {path === 'key' ? (
        <KeyForm
          client={props.client}
          settings={props.settings}
          keyStatus={props.keyStatus}
          onConnected={props.onConnected}
          onRecheckKeychain={props.onRecheckKeychain}
        />
      ) : null}

      <p className={styles.welcomeSkip}>
        <button type="button" className="button-link" onClick={props.onSkip}>
          Skip for now
        </button>{' '}
        <span className="muted">— you can enter the key later in Settings.</span>
      </p>
    </section>
  );
}
