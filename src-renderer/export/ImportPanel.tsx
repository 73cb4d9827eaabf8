/**
 * Import of incident files into the archive: Blotter's own CSV or GeoJSON, archives delivered
 * outside the API (CSV, JSON or NDJSON rows shaped like the API's incidents), and other systems'
 * CSV files through a column mapping. Choose a file (an upload in the web host, the open dialog in
 * Electron); a file whose columns are not Blotter's gets the mapping editor (the proposal, or the
 * mapping saved for its columns), and the preview follows every change; see the preview with every
 * row problem, then import — the valid rows, or nothing if any row is bad — in one all-or-nothing
 * step. Nothing is written before that. Cancel stops the reading or the writing (`cancelImport`):
 * nothing is written, and the file can be chosen again.
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { ImportPreview, ImportSource } from '../../src-shared/exports';
import type { ColumnMapping } from '../../src-shared/importMapping';
import type { ImportInspection } from '../../src-shared/importMappingCalls';
import { BridgeCallError, type Client } from '../bridge/client';
import { errorText } from '../text/errorText';
import { importOutcome } from './exportText';
import { ImportChooser, isBusy, useImportProgress, type ImportPhase } from './ImportChooser';
import { MappingStep } from './MappingStep';
import { draftOf, mappingOf, type Draft } from './mappingDraft';
import { PreviewStep, type OnBadRows } from './PreviewStep';
import { UnplacedArchive } from './UnplacedArchive';
import { useMappedPreview } from './useMappedPreview';
import { uploadFile } from './upload';

const message = (failure: unknown): string =>
  failure instanceof BridgeCallError || !(failure instanceof Error) ? errorText(failure) : failure.message;

/** A file whose columns need a mapping: what the engine found in it and the mapping as edited. */
type Mapping = { inspection: ImportInspection; draft: Draft };

export function ImportPanel({ client, web }: { client: Client; web: boolean }) {
  const headingId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  /** Cancel was pressed for the step now running (its call then answers `cancelled`). */
  const cancelling = useRef(false);
  const [phase, setPhase] = useState<ImportPhase>('idle');
  const { progress, reset: resetProgress } = useImportProgress(client);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [onBadRows, setOnBadRows] = useState<OnBadRows>('skip');
  const [outcome, setOutcome] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [work, setWork] = useState<Mapping | null>(null);
  const mapped = work ? mappingOf(work.draft) : null;
  const mapping: ColumnMapping | null = mapped && 'mapping' in mapped ? mapped.mapping : null;
  const fail = (failure: unknown) => setProblem(message(failure));
  // The file read again through each new mapping (one read at a time, the latest mapping last).
  const remap = useMappedPreview(
    client,
    work ? work.inspection.fileId : null,
    mapping,
    (p) => {
      setPreview(p);
      setProblem(null);
    },
    (failure) => {
      setPreview(null);
      fail(failure);
    },
  );

  /** Whether `failure` is the answer to Cancel: then says so, as the outcome. */
  const wasCancelled = (failure: unknown): boolean => {
    const asked = cancelling.current;
    cancelling.current = false;
    if (!(failure instanceof BridgeCallError && failure.code === 'cancelled')) return false;
    if (asked) setOutcome(failure.message);
    return true;
  };

  const cancel = () => {
    cancelling.current = true;
    void client.call('cancelImport', {}).catch(fail);
  };

  const read = async (source: ImportSource | undefined) => {
    setPhase('reading');
    resetProgress();
    setWork(null);
    try {
      const found = await client.call('inspectImport', source ? { source } : {});
      // Cancel pressed while the file's first rows were looked at: go no further.
      if (cancelling.current) {
        cancelling.current = false;
        setOutcome('Import cancelled; nothing was written.');
        setPhase('idle');
        return;
      }
      if (found.ownColumns && !found.saved) {
        // Blotter's or the API's own columns: no mapping to make.
        setPreview(await client.call('previewMapped', { fileId: found.fileId }));
      } else {
        setWork({ inspection: found, draft: draftOf(found) });
      }
      setPhase('ready');
      wasCancelled(null);
    } catch (failure) {
      setPhase('idle');
      if (!wasCancelled(failure)) fail(failure);
    }
  };

  const choose = async (event?: ChangeEvent<HTMLInputElement>) => {
    setProblem(null);
    setOutcome(null);
    setPreview(null);
    if (!web) return read(undefined);
    const file = event?.target.files?.[0];
    if (!file) return;
    setPhase('uploading');
    try {
      const uploaded = await uploadFile(file);
      await read({ uploadId: uploaded.uploadId, name: uploaded.name });
    } catch (failure) {
      setPhase('idle');
      fail(failure);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const run = async () => {
    if (!preview) return;
    setPhase('writing');
    setProblem(null);
    try {
      setOutcome(importOutcome(await client.call('runImport', { importId: preview.importId, onBadRows })));
      setPreview(null);
      setWork(null);
      setPhase('idle');
      wasCancelled(null);
    } catch (failure) {
      if (!wasCancelled(failure)) fail(failure);
      setPhase('ready');
    }
  };

  const discard = async () => {
    if (preview) await client.call('discardImport', { importId: preview.importId }).catch(() => undefined);
    setPreview(null);
    setWork(null);
    setPhase('idle');
  };

  return (
    <section className="card import-panel" aria-labelledby={headingId} aria-busy={isBusy(phase)}>
      <h2 id={headingId}>Import incidents</h2>
      <p>
        Add incidents from a file to the local archive: a Blotter CSV or GeoJSON export, or an archive
        delivered outside the API (CSV, JSON or NDJSON rows with the API’s fields: cdid, type, address, lat,
        lon, link and date as MM/DD/YY HH:MM AM/PM), or another system’s CSV export (Incident Number, Offense,
        Block Address, Date Reported, X/Y…) whose columns you map. Rows are matched by cdid; nothing is
        written until you confirm.
      </p>
      <ImportChooser
        web={web}
        phase={phase}
        progress={progress}
        writing={preview ? preview.valid : null}
        fileInput={fileInput}
        onChoose={(event) => void choose(event)}
        onCancel={cancel}
      />
      {problem ? <p className="message message-error">{problem}</p> : null}
      {outcome ? (
        <p className="message message-ok" role="status" data-testid="import-outcome">
          {outcome}
        </p>
      ) : null}
      {work && mapped && phase !== 'writing' ? (
        <MappingStep
          client={client}
          inspection={work.inspection}
          draft={work.draft}
          onDraft={(draft) => setWork({ ...work, draft })}
          mapped={mapped}
          mapping={mapping}
          reading={remap.reading}
          onFailure={fail}
        />
      ) : null}
      {preview && phase !== 'writing' && (!work || (mapping && !remap.stale)) ? (
        <PreviewStep
          preview={preview}
          onBadRows={onBadRows}
          setOnBadRows={setOnBadRows}
          reading={remap.reading}
          onImport={() => void run()}
          onDiscard={() => void discard()}
        />
      ) : null}
      <UnplacedArchive client={client} web={web} refreshKey={outcome} />
    </section>
  );
}
