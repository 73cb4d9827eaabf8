/** Which Blotter this is and where it keeps its data, for support and backups. */
import { useId } from 'react';
import type { AppInfo } from '../../app/appState';
import { HOST_LABEL } from '../../text/hostLabel';

export function AboutSection({ appInfo }: { appInfo: AppInfo }) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>This installation</h2>
      <dl className="facts">
        <dt>Version</dt>
        <dd>{appInfo.version}</dd>
        <dt>Running as</dt>
        <dd>{HOST_LABEL[appInfo.host]}</dd>
        <dt>Data folder</dt>
        <dd>
          <code>{appInfo.dataDir}</code>
        </dd>
      </dl>
    </section>
  );
}
