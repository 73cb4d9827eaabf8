/**
 * A webhook delivery: POST the alert's JSON payload through the one outbound module (https, or
 * http on literal loopback; no redirect followed). The `Idempotency-Key` header carries the
 * stable alert id, so a receiver can drop the second copy an at-least-once retry may bring. The
 * URL is a secret (a Teams/Slack hook URL is its own credential): it comes from the keychain,
 * is registered with the redactor, and no message or log line names more than "the webhook".
 */
import { outboundPost, OutboundRefused, readCapped, type PostFetch } from '../api/outboundAddress';
import { redact, registerSecret } from '../log';
import type { AlertPayload } from './payload';

export const WEBHOOK_TIMEOUT_MS = 15_000;
const ANSWER_CAP = 64 * 1024;

export type SendOutcome = { ok: true } | { ok: false; error: string; permanent?: boolean };

export async function sendWebhook(
  fetch: PostFetch,
  url: string,
  payload: AlertPayload,
): Promise<SendOutcome> {
  registerSecret(url);
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  let response: Response;
  try {
    response = await outboundPost(fetch, url, {
      signal,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': payload.id,
        'x-blotter-alert-id': payload.id,
      },
      body: JSON.stringify(payload),
    });
  } catch (error) {
    if (error instanceof OutboundRefused) return { ok: false, error: redact(error.message), permanent: true };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const why = signal.aborted
      ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`
      : (cause ?? 'network error');
    return { ok: false, error: redact(`Could not reach the webhook: ${why}.`) };
  }
  await readCapped(response, ANSWER_CAP, 'The webhook answer').catch(() => undefined);
  if (response.status >= 200 && response.status < 300) return { ok: true };
  const status = response.status;
  if (status >= 300 && status < 400)
    return {
      ok: false,
      error: `The webhook answered with a redirect (HTTP ${status}); Blotter does not follow it.`,
      permanent: true,
    };
  const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return { ok: false, error: `The webhook answered HTTP ${status}.`, permanent };
}
