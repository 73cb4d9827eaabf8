/** Settings: the API key (only whether one is set), the connection and plan, and this installation. */
import type { EngineEvent } from '../../src-shared/contract';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView as Settings } from '../../src-shared/settings';
import type { AppInfo } from '../app/appState';
import type { Client } from '../bridge/client';
import { ViewFrame } from '../shell/ViewFrame';
import { AboutSection } from './settings/AboutSection';
import { ApiKeySection } from './settings/ApiKeySection';
import { BasemapSection } from './settings/BasemapSection';
import { ConnectionSection } from './settings/ConnectionSection';
import { OfficeSection } from './settings/OfficeSection';

export type SettingsViewProps = {
  client: Client;
  settings: Settings;
  keyStatus: KeyStatus;
  appInfo: AppInfo | null;
  /** Hands a value a call returned to the app state, as the matching engine event would. */
  apply: (event: EngineEvent) => void;
};

export function SettingsView({ client, settings, keyStatus, appInfo, apply }: SettingsViewProps) {
  return (
    <ViewFrame title="Settings" intro="Your API key, where the API lives, and the plan your key belongs to.">
      <ApiKeySection
        client={client}
        keyStatus={keyStatus}
        onStatus={(status) => apply({ type: 'keyStatusChanged', status })}
      />
      <ConnectionSection
        client={client}
        settings={settings}
        onSaved={(saved) => apply({ type: 'settingsChanged', settings: saved })}
      />
      <BasemapSection
        client={client}
        settings={settings}
        onSaved={(saved) => apply({ type: 'settingsChanged', settings: saved })}
      />
      <OfficeSection client={client} web={appInfo?.host === 'web'} />
      {appInfo ? <AboutSection appInfo={appInfo} /> : null}
    </ViewFrame>
  );
}
