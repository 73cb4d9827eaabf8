/**
 * The printable report of a PDF export (`#/report?job=ID`): the host opens this page hidden and
 * prints it. It asks the engine for the job's figures (getReport), draws the streets under its map,
 * and shows the weekly bulletin (ReportDocument.tsx); every date from the one formatter
 * (src-shared/localTime.ts), page numbers and a running footer as @page margin boxes. In the light
 * palette whatever the system theme; then it sets `body[data-report-ready]` (or
 * `data-report-error`) for the host. The address and the readiness marks are the contract every
 * printer relies on (src-shared/reportRoute.ts, src-main/web/reportReadiness.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import type { BlotterApi } from '../../src-shared/contract';
import type { ReportModel } from '../../src-shared/exports';
import { MILES_PER_DEGREE_LAT } from '../../src-shared/geo';
import { createClient, type Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { streetAttribution } from '../map/basemap/attribution';
import type { StreetsImage } from '../map/basemap/staticStreets';
import { errorText } from '../text/errorText';
import { ReportDocument } from './ReportDocument';
import { mapBox, projection, STATIC_MAP_SIZE } from './StaticMap';
import styles from './report.module.css';

export function ReportPage({ api, jobId }: { api: BlotterApi; jobId: string }) {
  const client = useMemo(() => createClient(api), [api]);
  const [model, setModel] = useState<ReportModel | null>(null);
  const [error, setError] = useState<string | null>(null);
  // undefined while the streets are being drawn; null when there are none.
  const [streets, setStreets] = useState<StreetsImage | null | undefined>(undefined);

  useEffect(() => {
    client.call('getReport', { jobId }).then(setModel, (failure: unknown) => {
      const text = errorText(failure);
      setError(text);
      document.body.dataset.reportError = text;
    });
  }, [client, jobId]);

  useCurrentEffect(
    (current) => {
      if (model) void reportStreets(client, model).then((image) => current() && setStreets(image));
    },
    [client, model],
  );

  // Runs after the sections' own effects (the chart draws without animation in its effect).
  useEffect(() => {
    if (!model || streets === undefined) return;
    document.title = `${model.title} — Blotter`;
    // The hosts print only a page marked as this job's report (src-main/web/reportReadiness.ts).
    document.body.dataset.reportJob = jobId;
    document.body.dataset.reportReady = 'true';
  }, [model, jobId, streets]);

  if (error) return <p className={styles.message}>{error}</p>;
  if (!model) return <p className={styles.message}>Preparing the report…</p>;
  return <ReportDocument model={model} streets={streets ?? null} />;
}

/** The streets under the report's map when a vector basemap covers it; null otherwise (never fails). */
async function reportStreets(client: Client, model: ReportModel): Promise<StreetsImage | null> {
  const box = mapBox(model.map);
  if (!box) return null;
  try {
    const info = await client.call('getBasemapInfo', {});
    const p = projection(box);
    // Loaded only when a report is printed: protomaps-leaflet stays out of the report's first chunk.
    const { drawStreets } = await import('../map/basemap/staticStreets');
    const href = await Promise.race([
      drawStreets(client, info, box, {
        ...STATIC_MAP_SIZE,
        pxPerDegreeLat: p.pxPerMile * MILES_PER_DEGREE_LAT,
      }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
    ]);
    return href ? { href, attribution: streetAttribution(info) } : null;
  } catch {
    return null;
  }
}
