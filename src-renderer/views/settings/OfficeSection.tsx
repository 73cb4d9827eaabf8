/**
 * Settings › Office: join this data folder to the office's PostgreSQL database (address without a
 * password; the password goes to the keychain; TLS verified unless the server is this computer),
 * its status (which areas this desktop leads and for how long, the office's requests in the last
 * minute, how far the replica is behind, the last pull, or "PostgreSQL unreachable: syncs paused,
 * working on the replica"), a pull now (its progress and Cancel while any pull runs), and leaving
 * (the replica stays as a standalone archive).
 * A folder with an archive of its own is offered to seed an empty office, or to give way to it.
 */
import { useId, useRef, useState } from 'react';
import type { OfficeStatus } from '../../../src-shared/officeCalls';
import type { Client } from '../../bridge/client';
import { LeaveOfficeConfirm } from './LeaveOfficeConfirm';
import { OfficeJoinForm } from './OfficeJoinForm';
import { OfficePullProgress } from './OfficePullProgress';
import { EMPTY_OFFICE_FORM, officeStatusLines, type OfficeForm } from './officeForm';
import { useOfficeRun } from './useOfficeRun';
import { useOfficePull } from './useOfficePull';
import { useOfficeStatus } from './useOfficeStatus';

export type OfficeSectionProps = {
  client: Client;
  /** The web host: a private CA's file is uploaded from the page; Electron: its open dialog chooses it. */
  web: boolean;
};

export function OfficeStatusList({
  status,
  areaName,
  now,
}: {
  status: OfficeStatus;
  areaName: (id: number) => string;
  now: number;
}) {
  return (
    // The live region wraps the list: a list given role="status" stops being a list for its items.
    <div data-testid="office-status" role="status">
      <ul className="plain">
        {officeStatusLines(status, areaName, now).map((l) => (
          <li key={l.text} className={l.tone === 'warn' ? 'message message-error' : undefined}>
            {l.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function OfficeSection({ client, web }: OfficeSectionProps) {
  const headingId = useId();
  const actions = useOfficeRun();
  const { busy, run, notice, setNotice, problem, setProblem } = actions;
  const { status, names, now, refresh } = useOfficeStatus(client, setProblem);
  const pull = useOfficePull(client, setProblem, () => void refresh());
  const [form, setForm] = useState<OfficeForm>(EMPTY_OFFICE_FORM);
  const [leaving, setLeaving] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);

  /** A button's work: its call, then what it did in words, and the status read again. */
  const act = (work: () => Promise<string>) => () =>
    void run(async () => {
      setNotice(await work());
      await refresh();
    });

  /** Leaving, once confirmed: a failure stays in the dialog. */
  const leave = async () => {
    const left = await client.call('leaveOffice', {});
    setProblem(null);
    setNotice(
      `Left the office: this folder keeps its ${left.replicaIncidents} incidents as a standalone archive.`,
    );
    await refresh();
    setLeaving(false);
  };

  return (
    <section className="card" aria-labelledby={headingId} ref={sectionRef}>
      <h2 id={headingId}>Office</h2>
      <p className="muted">
        Share one API key’s rate budget and one archive with every Blotter in the office, on PostgreSQL. This
        folder stays a replica you can work on offline.
      </p>
      {status ? (
        <OfficeStatusList status={status} areaName={(id) => names.get(id) ?? `Area ${id}`} now={now} />
      ) : null}
      {status?.joined ? (
        <div className="actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={act(async () => {
              const n = await client.call('pullOffice', {});
              return `Pulled ${n.incidents} incidents, ${n.areas} areas and ${n.deletions} deletions.`;
            })}
          >
            Pull now
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => setLeaving(true)}>
            Leave the office…
          </button>
        </div>
      ) : status ? (
        <OfficeJoinForm
          client={client}
          web={web}
          actions={actions}
          form={form}
          setForm={setForm}
          onJoined={async (text) => {
            setNotice(text);
            await refresh();
          }}
        />
      ) : null}
      <OfficePullProgress progress={pull.progress} onCancel={pull.cancel} cancelling={pull.cancelling} />
      {leaving && status ? (
        <LeaveOfficeConfirm
          status={status}
          areas={names.size}
          onLeave={leave}
          onCancel={() => setLeaving(false)}
          // Its button went with the joined state: the join form's first field.
          fallbackFocus={() => sectionRef.current?.querySelector<HTMLElement>('input, button')}
        />
      ) : null}
      {notice ? (
        <p className="message" role="status">
          {notice}
        </p>
      ) : null}
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
