/**
 * What App puts in the main area around the current view: the demo banner while the demo runs,
 * the welcome screen on a first launch (instead of the view), and the first-area hint on Areas
 * after a successful connection test.
 */
import type { ReactNode } from 'react';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';
import type { ViewId } from '../app/routes';
import type { Client } from '../bridge/client';
import { DemoBanner } from './DemoBanner';
import { FirstAreaHint } from './FirstAreaHint';
import type { FirstRun } from './useFirstRun';
import { WelcomeScreen } from './WelcomeScreen';

export type FirstRunFrameProps = {
  firstRun: FirstRun;
  view: ViewId;
  client: Client;
  settings: SettingsView;
  /** Null while the keychain is still being asked (the welcome never shows then: useFirstRun). */
  keyStatus: KeyStatus | null;
  onRecheckKeychain: () => void;
  children: ReactNode;
};

export function FirstRunFrame({ firstRun, view, children, keyStatus, ...props }: FirstRunFrameProps) {
  const { demo } = firstRun;
  return (
    <>
      {demo?.active ? <DemoBanner demo={demo} onRemove={firstRun.removeDemo} /> : null}
      {firstRun.welcome && keyStatus ? (
        <WelcomeScreen
          {...props}
          keyStatus={keyStatus}
          demo={demo}
          onStartDemo={firstRun.startDemo}
          onConnected={() => firstRun.leave('areas', 'first-area')}
          onSkip={() => firstRun.leave('map')}
        />
      ) : (
        <>
          {view === 'areas' && firstRun.hint === 'first-area' ? (
            <FirstAreaHint onDismiss={firstRun.dismissHint} />
          ) : null}
          {children}
        </>
      )}
    </>
  );
}
