/**
 * Alerts by email through the office's mail server: server, port, sign-in, sender and recipients,
 * the password (to the keychain, bound to the server it was entered for), security, each alert or
 * a daily digest. A refused field says why beside it; the outcome stands beside Save.
 */
import type { AlertChannelsView } from '../../src-shared/alertCalls';
import { invalidProps } from '../shell/InlineMessage';
import { FieldRow, issueOf, OutcomeLine, type Email, type Outcome } from './deliveryParts';
import styles from './alerts.module.css';

type Props = {
  id: string;
  email: Email;
  setEmail: (email: Email) => void;
  view: AlertChannelsView | null;
  host: 'electron' | 'web' | 'cli' | null;
  mailOutcome: Outcome | null;
  mailPaths: readonly string[];
  onSave: () => void;
};

export function EmailChannelForm({ id, email, setEmail, view, host, mailOutcome, mailPaths, onSave }: Props) {
  return (
    <form
      className={styles.ruleForm}
      aria-label="Email"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <label htmlFor={`${id}-mail-on`}>Email</label>
      <label className="check">
        <input
          id={`${id}-mail-on`}
          type="checkbox"
          checked={email.enabled}
          onChange={(e) => setEmail({ ...email, enabled: e.target.checked })}
        />
        Send alerts through the office’s mail server
      </label>
      {(
        [
          ['host', 'Mail server'],
          ['port', 'Port'],
          ['user', 'User (empty: no sign-in)'],
          ['from', 'From'],
          ['to', 'To (comma separated)'],
        ] as const
      ).map(([key, label]) => (
        <FieldRow
          key={key}
          id={`${id}-${key}`}
          label={label}
          error={issueOf(mailOutcome, `email.config.${key}`)}
        >
          <input
            id={`${id}-${key}`}
            value={email[key]}
            onChange={(e) => setEmail({ ...email, [key]: e.target.value })}
            {...invalidProps(`${id}-${key}-error`, issueOf(mailOutcome, `email.config.${key}`))}
          />
        </FieldRow>
      ))}
      <FieldRow id={`${id}-pw`} label="Password">
        <input
          id={`${id}-pw`}
          type="password"
          autoComplete="off"
          placeholder={view?.email.passwordStored ? 'Stored in the keychain — type to replace' : ''}
          value={email.password}
          onChange={(e) => setEmail({ ...email, password: e.target.value })}
        />
      </FieldRow>
      <FieldRow id={`${id}-tls`} label="Security">
        <select
          id={`${id}-tls`}
          value={email.tls}
          onChange={(e) => setEmail({ ...email, tls: e.target.value as Email['tls'] })}
        >
          <option value="starttls">STARTTLS (port 587)</option>
          <option value="tls">TLS from the start (port 465)</option>
        </select>
      </FieldRow>
      <FieldRow id={`${id}-mode`} label="Send">
        <select
          id={`${id}-mode`}
          value={email.mode}
          onChange={(e) => setEmail({ ...email, mode: e.target.value as Email['mode'] })}
        >
          <option value="immediate">each alert at once</option>
          <option value="digest">a daily digest</option>
        </select>
      </FieldRow>
      {email.mode === 'digest' ? (
        <FieldRow id={`${id}-hour`} label="Digest hour (0–23)">
          <input
            id={`${id}-hour`}
            type="number"
            min={0}
            max={23}
            value={email.digestHour}
            onChange={(e) => setEmail({ ...email, digestHour: e.target.value })}
          />
        </FieldRow>
      ) : null}
      {view && !view.email.hostConfirmed ? (
        <p className="message-error">
          The stored password was entered for another mail server.{' '}
          {host === 'electron'
            ? 'Saving asks you to confirm the new one.'
            : 'Enter it again to use it with this one.'}
        </p>
      ) : null}
      <div className={styles.formActions}>
        <button type="submit" className="button">
          Save email settings
        </button>
      </div>
      <OutcomeLine id={`${id}-mail-outcome`} outcome={mailOutcome} shownPaths={mailPaths} />
    </form>
  );
}
