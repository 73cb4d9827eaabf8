/** Progress of a long analysis: the fraction done, 0…1 (called now and then, never per item). */
export type Progress = (fraction: number) => void;
