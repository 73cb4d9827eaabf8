/**
 * In the web host, a file to import travels as the raw body of one POST to the host (the page never
 * sees or names a path on the host); the answer holds the upload id previewImport takes. Electron
 * needs none of this: its open dialog picks the file in the main process.
 */
import { UPLOAD_NAME_HEADER, UPLOAD_PATH } from '../../src-shared/webProtocol';

export type Uploaded = { uploadId: string; name: string; bytes: number };

export async function uploadFile(
  file: File,
  fetchFn: typeof fetch = (url, init) => window.fetch(url, init),
): Promise<Uploaded> {
  const answer = await fetchFn(UPLOAD_PATH, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/octet-stream',
      [UPLOAD_NAME_HEADER]: encodeURIComponent(file.name),
    },
    body: file,
    credentials: 'same-origin',
  });
  const result = (await answer.json().catch(() => null)) as
    { ok: true; value: Uploaded } | { ok: false; error: { message: string } } | null;
  if (!result) throw new Error(`The upload failed (HTTP ${answer.status}).`);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
