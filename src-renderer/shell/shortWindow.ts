/**
 * Short windows (under 720 px tall, such as 1024×700): the demo banner and the filter bar start collapsed there,
 * so the map keeps at least 420 px. Read once, when a part first shows; the user's toggle wins after.
 */
export const SHORT_WINDOW_PX = 720;

export const isShortWindow = (): boolean =>
  typeof window !== 'undefined' && window.innerHeight < SHORT_WINDOW_PX;
