/**
 * The inspected file previewed again through the editor's mapping: a short pause after the last
 * change, then one previewMapped at a time (the engine reads one import at a time), always ending
 * on the latest mapping. `stale`: the preview shown is not of the mapping as it stands.
 */
import { useEffect, useRef, useState } from 'react';
import type { ImportPreview } from '../../src-shared/exports';
import type { ColumnMapping } from '../../src-shared/importMapping';
import type { Client } from '../bridge/client';

const PAUSE_MS = 250;

type Wanted = { key: string; fileId: string; mapping: ColumnMapping };

export function useMappedPreview(
  client: Client,
  fileId: string | null,
  mapping: ColumnMapping | null,
  onPreview: (preview: ImportPreview) => void,
  onFailure: (failure: unknown) => void,
): { reading: boolean; stale: boolean } {
  const key = fileId && mapping ? `${fileId} ${JSON.stringify(mapping)}` : null;
  const [done, setDone] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const wanted = useRef<Wanted | null>(null);
  const running = useRef(false);
  const handlers = useRef({ onPreview, onFailure });
  handlers.current = { onPreview, onFailure };

  useEffect(() => {
    if (!key || !fileId || !mapping) {
      wanted.current = null;
      return;
    }
    const timer = setTimeout(() => {
      wanted.current = { key, fileId, mapping };
      if (running.current) return;
      running.current = true;
      setReading(true);
      void (async () => {
        try {
          for (let next = wanted.current; next; next = wanted.current) {
            try {
              const preview = await client.call('previewMapped', {
                fileId: next.fileId,
                mapping: next.mapping,
              });
              if (wanted.current?.key === next.key) handlers.current.onPreview(preview);
            } catch (failure) {
              if (wanted.current?.key === next.key) handlers.current.onFailure(failure);
            }
            setDone(next.key);
            if (wanted.current?.key === next.key) wanted.current = null;
          }
        } finally {
          running.current = false;
          setReading(false);
        }
      })();
    }, PAUSE_MS);
    return () => clearTimeout(timer);
    // `mapping` is in `key` (its JSON); a new object of the same mapping is not a change.
  }, [client, key]);

  return { reading, stale: key !== done };
}
