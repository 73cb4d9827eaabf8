/**
 * The hosts' part in exports and imports, as an EngineHandle around the engine's: a host passes
 * its hooks and serves the wrapped handle (the Electron IPC loop, the web host's calls), so the
 * renderer's input never decides a file path.
 *
 * - startExport: any destination the page sent is dropped; the host decides (Electron: its save
 *   dialog; web host: none, so the engine writes into the data folder's exports/). A PDF job's
 *   print token is taken out of the answer and the host prints the report page into the job's
 *   file, then tells the engine (finishReport) — or why it could not.
 * - previewImport: the host decides the source (Electron: its open dialog; web host: an upload id,
 *   never a path).
 * - joinOffice: the host chooses the office CA certificate the same way; an address that names a
 *   file (sslrootcert) is refused, so a page cannot make the engine read a path it names.
 *
 * Host-agnostic and free of Electron: each host implements the three hooks thinly. Both calls are
 * the contract's `answeredBy: 'host-then-engine'`: the steps are a typed `HostSteps` record routed
 * by hostCalls.ts, so a new host step without its answer here is a type error.
 */
import type { ColumnMapping } from '../../../src-shared/importMapping';
import type { ReportPaper } from '../../../src-shared/reportRoute';
import type { CallOutput, Result } from '../../../src-shared/contract';
import type { ExportFormat, ImportSource, StartExportOutput } from '../../../src-shared/exports';
import type { EngineHandle } from '../engineHandle';
import { withHostCalls, type HostSteps } from '../hostCalls';
import { createLogger } from '../log';
import { defaultFileName } from '../files/destination';

const log = createLogger('export-host');

/** Whether an office address names a file (sslrootcert, however its name is escaped). */
function namesHostFile(url: string): boolean {
  try {
    return new URL(url.trim()).searchParams.has('sslrootcert');
  } catch {
    return false; // not an address: the engine says so
  }
}

export type PrintJob = { jobId: string; file: string; paper?: ReportPaper };
/** What a chosen file is for: an incident import, a boundary file, an office join's CA certificate, or the locator's reference. */
export type ChosenFilePurpose = 'import' | 'boundaries' | 'office-ca' | 'place-reference';

export interface ExportHostHooks {
  /** An absolute path for the new file; undefined: the data folder's exports/; null: the user cancelled. */
  chooseDestination(request: {
    format: ExportFormat;
    suggestedName: string;
  }): Promise<string | null | undefined>;
  /**
   * The file to read, given what the page sent; null: the user cancelled. Throw to refuse.
   * `purpose` says what for (a dialog's title and filters): an import, or the office CA certificate.
   */
  chooseImport(sent: ImportSource | undefined, purpose?: ChosenFilePurpose): Promise<ImportSource | null>;
  /** Prints the report page of `jobId` (`#/report?job=ID`) into `file` as PDF; rejects with a reason. */
  printReport(job: PrintJob): Promise<void>;
}

const cancelled = (message: string): Result<never> => ({ ok: false, error: { code: 'cancelled', message } });

export function withExportHooks(engine: EngineHandle, hooks: ExportHostHooks): EngineHandle {
  async function startExport(
    input: Parameters<HostSteps['startExport']>[0],
  ): Promise<Result<CallOutput<'startExport'>>> {
    const { destination: _ignored, ...rest } = input;
    const format: ExportFormat = rest.format;
    const chosen = await hooks.chooseDestination({
      format,
      suggestedName: defaultFileName(format, Date.now()),
    });
    if (chosen === null) return cancelled('No file was chosen, so nothing was exported.');
    const result = await engine.call(
      'startExport',
      chosen === undefined ? rest : { ...rest, destination: { path: chosen } },
    );
    if (!result.ok || !result.value.print) return result;
    const { print, ...answer } = result.value as StartExportOutput;
    if (print) void printAndFinish(result.value.jobId, print.token, print.file, print.paper);
    return { ok: true, value: answer };
  }

  async function printAndFinish(
    jobId: string,
    token: string,
    file: string,
    paper: ReportPaper | undefined,
  ): Promise<void> {
    let failed: string | undefined;
    try {
      await hooks.printReport({ jobId, file, ...(paper ? { paper } : {}) });
    } catch (error) {
      failed = error instanceof Error ? error.message : String(error);
      log.warn('the report could not be printed', { jobId, reason: failed });
    }
    const answer = await engine.call('finishReport', {
      jobId,
      token,
      ...(failed === undefined ? {} : { failed }),
    });
    if (!answer.ok)
      log.warn('the engine did not take the printed report', { jobId, error: answer.error.message });
  }

  /** The host chooses the file the page names (a dialog, or an upload's id), then the call goes on. */
  async function withChosenFile<T>(
    named: ImportSource | undefined,
    then: (source: ImportSource) => Promise<Result<T>>,
    purpose: ChosenFilePurpose = 'import',
  ): Promise<Result<T>> {
    let source: ImportSource | null;
    try {
      source = await hooks.chooseImport(named, purpose);
    } catch (error) {
      return {
        ok: false,
        error: { code: 'bad_input', message: error instanceof Error ? error.message : String(error) },
      };
    }
    if (source === null) return cancelled('No file was chosen.');
    return then(source);
  }

  async function previewImport(input: {
    source?: ImportSource;
    mapping?: ColumnMapping;
  }): Promise<Result<CallOutput<'previewImport'>>> {
    // The page's column mapping goes with the host's choice of file.
    return withChosenFile(input.source, (source) =>
      engine.call('previewImport', { source, ...(input.mapping ? { mapping: input.mapping } : {}) }),
    );
  }

  /** The mapping editor's first look at a file: the host chooses it, as for previewImport. */
  async function inspectImport(input: {
    source?: ImportSource;
  }): Promise<Result<CallOutput<'inspectImport'>>> {
    return withChosenFile(input.source, (source) => engine.call('inspectImport', { source }));
  }

  /** A boundary file (engine/boundaries): the host chooses it, as for previewImport. */
  async function previewBoundaries(input: {
    source?: ImportSource;
  }): Promise<Result<CallOutput<'previewBoundaries'>>> {
    return withChosenFile(
      input.source,
      (source) => engine.call('previewBoundaries', { source }),
      'boundaries',
    );
  }

  /**
   * An office join: the host chooses the CA certificate file (the page asks for it or sends an
   * upload's id); an address naming a file itself (sslrootcert) is refused — only the CLI may.
   */
  async function joinOffice(
    input: Parameters<HostSteps['joinOffice']>[0],
  ): Promise<Result<CallOutput<'joinOffice'>>> {
    if (namesHostFile(input.url))
      return {
        ok: false,
        error: {
          code: 'bad_input',
          message:
            'The office address cannot name a file on this computer (sslrootcert): choose the CA certificate file instead.',
        },
      };
    const { caFile, ...rest } = input;
    if (!caFile) return engine.call('joinOffice', rest);
    return withChosenFile(
      'choose' in caFile ? undefined : caFile,
      (source) => engine.call('joinOffice', { ...rest, caFile: source }),
      'office-ca',
    );
  }

  /** A reference file for the offline locator (engine/import/places): the host chooses it, as for previewImport. */
  async function addPlaceReference(input: {
    source?: ImportSource;
  }): Promise<Result<CallOutput<'addPlaceReference'>>> {
    return withChosenFile(
      input.source,
      (source) => engine.call('addPlaceReference', { source }),
      'place-reference',
    );
  }

  const steps: HostSteps = {
    startExport,
    previewImport,
    inspectImport,
    previewBoundaries,
    joinOffice,
    addPlaceReference,
  };
  return withHostCalls(engine, steps);
}
