/**
 * The watched areas as the app reads and edits them (handlers/areas.ts, handlers/layers.ts): one
 * interface with two homes. A standalone folder's areas are its own store's (below); a folder
 * joined to an office edits the office database's, each edit back here by the replica's pull
 * (office/areaEdits.ts). Which one answers is decided in one place, by the folder's mode
 * (`areaEditsByMode`, wired in services.ts), never by the callers. Reads are the folder's own in
 * both modes: a replica holds the office's areas.
 */
import type { Shape } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import type { AreaRecord, AreaStore } from './areaStore';

export type AreaInput = { name: string; shape: Shape; refreshMinutes?: number };

export type AreaEdits = {
  get(id: number): AreaRecord | undefined;
  list(): AreaRecord[];
  create(input: AreaInput, now: number): Promise<AreaRecord>;
  /** Several areas at once (a boundary file's polygons): standalone, all or none. */
  createAll(inputs: readonly AreaInput[], now: number): Promise<AreaRecord[]>;
  rename(id: number, name: string): Promise<void>;
  setRefreshMinutes(id: number, minutes: number): Promise<void>;
  setPaused(id: number, paused: boolean): Promise<void>;
  remove(id: number, keepIncidents: boolean): Promise<{ deleted: boolean; incidentsRemoved: number }>;
};

/** A standalone folder's areas: its own store, each edit at once. */
export function standaloneAreaEdits(db: Db, areas: AreaStore): AreaEdits {
  return {
    get: (id) => areas.get(id),
    list: () => areas.list(),
    create: async (input, now) => areas.create(input, now),
    createAll: async (inputs, now) =>
      db.transaction(() => inputs.map((input) => areas.create(input, now))).immediate(),
    rename: async (id, name) => areas.rename(id, name),
    setRefreshMinutes: async (id, minutes) => areas.setRefreshMinutes(id, minutes),
    setPaused: async (id, paused) => areas.setPaused(id, paused),
    remove: async (id, keep) => areas.remove(id, keep),
  };
}

/**
 * The folder's areas in its current mode: the office's edits while it is joined to one (`office`
 * answers them, null while standalone), the standalone ones otherwise. A join or a leave changes
 * the mode, so it is asked at each call, here and nowhere else.
 */
export function areaEditsByMode(standalone: AreaEdits, office: () => AreaEdits | null): AreaEdits {
  const current = (): AreaEdits => office() ?? standalone;
  return {
    get: (id) => current().get(id),
    list: () => current().list(),
    create: (input, at) => current().create(input, at),
    createAll: (inputs, at) => current().createAll(inputs, at),
    rename: (id, name) => current().rename(id, name),
    setRefreshMinutes: (id, minutes) => current().setRefreshMinutes(id, minutes),
    setPaused: (id, paused) => current().setPaused(id, paused),
    remove: (id, keep) => current().remove(id, keep),
  };
}
