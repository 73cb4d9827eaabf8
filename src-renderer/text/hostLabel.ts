/** How each host running Blotter is named to the user. */
import type { AppInfo } from '../app/appState';

export const HOST_LABEL: Record<AppInfo['host'], string> = {
  electron: 'Desktop app',
  web: 'Web host (in a browser)',
  cli: 'Command line',
};
