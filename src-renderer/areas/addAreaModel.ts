/**
 * The add-area form's shape: drawn on the map, or a circle around a searched place or typed
 * coordinates. Decides what the map previews and what createArea receives, with a problem per
 * field otherwise. Pure.
 */
import type { AreaShape } from '../../src-shared/sync';
import { circleOf, type CircleErrors } from './coordinates';

export type Method = 'draw' | 'place' | 'coordinates';

export type AddAreaDraft = {
  method: Method;
  name: string;
  centre: string;
  radius: string;
  drawn: AreaShape | null;
};

export type AddAreaErrors = CircleErrors & { name?: string; drawn?: string };

export const emptyDraft: AddAreaDraft = { method: 'draw', name: '', centre: '', radius: '1', drawn: null };

/** The shape the map shows while the form is filled in (null while incomplete). */
export function previewShape(draft: AddAreaDraft): AreaShape | null {
  if (draft.method === 'draw') return null; // the drawing stays on the map by itself
  const circle = circleOf({ centre: draft.centre, radius: draft.radius });
  return 'shape' in circle ? circle.shape : null;
}

/** What createArea gets, or the problems to show. */
export function shapeToCreate(
  draft: AddAreaDraft,
): { shape: AreaShape; name: string } | { errors: AddAreaErrors } {
  const name = draft.name.trim() ? undefined : 'Give the area a name.';
  if (draft.method === 'draw') {
    if (!draft.drawn || name)
      return {
        errors: {
          ...(draft.drawn ? {} : { drawn: 'Draw a circle or a polygon on the map first.' }),
          ...(name ? { name } : {}),
        },
      };
    return { shape: draft.drawn, name: draft.name.trim() };
  }
  const circle = circleOf({ centre: draft.centre, radius: draft.radius });
  if ('errors' in circle || name)
    return { errors: { ...('errors' in circle ? circle.errors : {}), ...(name ? { name } : {}) } };
  return { shape: circle.shape, name: draft.name.trim() };
}
