/**
 * The import's mapping step, for a file whose columns are not Blotter's: the file's columns, the
 * mapping editor, "Save the mapping" (a file with the same columns gets it proposed), and what the
 * preview still waits for.
 */
import { useState } from 'react';
import type { ColumnMapping } from '../../src-shared/importMapping';
import type { ImportInspection } from '../../src-shared/importMappingCalls';
import type { Client } from '../bridge/client';
import { FileColumns } from './FileColumns';
import { MappingEditor } from './MappingEditor';
import type { Draft, mappingOf } from './mappingDraft';
import mappingStyles from './mapping.module.css';

type Props = {
  client: Client;
  inspection: ImportInspection;
  draft: Draft;
  onDraft: (draft: Draft) => void;
  mapped: ReturnType<typeof mappingOf>;
  mapping: ColumnMapping | null;
  /** The file is being read through the mapping. */
  reading: boolean;
  onFailure: (failure: unknown) => void;
};

export function MappingStep({
  client,
  inspection,
  draft,
  onDraft,
  mapped,
  mapping,
  reading,
  onFailure,
}: Props) {
  const [saved, setSaved] = useState<string | null>(null);
  const save = async () => {
    if (!mapping) return;
    setSaved(null);
    try {
      const answer = await client.call('saveMapping', { fileId: inspection.fileId, mapping });
      setSaved(answer.saved);
    } catch (failure) {
      onFailure(failure);
    }
  };
  return (
    <>
      <FileColumns inspection={inspection} />
      <MappingEditor
        inspection={inspection}
        draft={draft}
        onChange={(d) => {
          onDraft(d);
          setSaved(null);
        }}
      />
      <div className={mappingStyles.mappingActions}>
        <button type="button" className="button" disabled={!mapping} onClick={() => void save()}>
          Save the mapping “{draft.name.trim() || '…'}”
        </button>
        {saved ? (
          <span role="status" data-testid="mapping-saved">
            Saved as “{saved}”: a file with the same columns gets it proposed.
          </span>
        ) : null}
        {'missing' in mapped ? (
          <span className="muted" data-testid="mapping-missing">
            To preview, choose {mapped.missing.join(', ')}.
          </span>
        ) : reading ? (
          <span className="muted" role="status">
            Reading the file through the mapping…
          </span>
        ) : null}
      </div>
    </>
  );
}
