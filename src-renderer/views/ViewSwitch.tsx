/** Picks the component of the current view. Each view lives in its own file. */
import { setupStep } from '../app/nextStep';
import type { ViewId } from '../app/routes';
import { AreasView } from './AreasView';
import { ExportView } from './ExportView';
import { HistoryView } from './HistoryView';
import { MapView } from './MapView';
import { SettingsView, type SettingsViewProps } from './SettingsView';
import { TableView } from './TableView';

export function ViewSwitch({ view, ...props }: { view: ViewId } & SettingsViewProps) {
  const setup = setupStep(props.settings, props.keyStatus);
  switch (view) {
    case 'map':
      return <MapView setup={setup} />;
    case 'table':
      return <TableView setup={setup} />;
    case 'history':
      return <HistoryView setup={setup} />;
    case 'export':
      return <ExportView setup={setup} />;
    case 'areas':
      return <AreasView setup={setup} />;
    case 'settings':
      return <SettingsView {...props} />;
  }
}
