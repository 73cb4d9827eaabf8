/** A whole number as the user reads it: 1,200 (fixed to en-US until the app is localised). */
export const count = (n: number): string => n.toLocaleString('en-US');
