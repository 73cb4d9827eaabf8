/**
 * Short windows (under 800 px tall, such as 1280×720 or 1024×700): the filter bar starts folded to
 * its first row there (its active filters as chips), so the map keeps at least 65 % of a 1280×720
 * window (and 420 px at 1024×700). Read once, when the bar first shows; the user's toggle wins after.
 */
export const SHORT_WINDOW_PX = 800;

export const isShortWindow = (): boolean =>
  typeof window !== 'undefined' && window.innerHeight < SHORT_WINDOW_PX;
