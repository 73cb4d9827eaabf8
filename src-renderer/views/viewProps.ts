import type { NextStep } from '../app/nextStep';

/** What every data view receives from the shell until later work gives it data of its own. */
export type DataViewProps = { setup: NextStep | null };
