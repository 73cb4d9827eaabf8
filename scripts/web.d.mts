// Types of what TypeScript hosts use from web.mjs (the CLI's `report` builds out/ as `npm run web` does).
export const ROOT: string;
export function buildIsStale(): boolean;
export function build(): void;
export function ensureBuilt(who?: string): void;
