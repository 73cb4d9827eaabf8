/**
 * What the panel shows for the description, which only the API's detail endpoint has (one
 * request per incident): the stored text, a fetch in progress, or why it has not been fetched yet.
 */
import type { IncidentDetail } from '../../src-shared/incidentQueries';
import type { Problem } from '../text/errorText';

export type FetchStatus =
  { status: 'idle' } | { status: 'fetching'; since: number } | { status: 'failed'; problem: Problem };

export type DescriptionView =
  | { kind: 'stored'; text: string; fetchedAt: number | null }
  | { kind: 'gone'; text: string }
  | { kind: 'fetching'; text: string }
  | { kind: 'not-fetched'; text: string; reason: string | null; button: string };

const NOT_YET = 'The description has not been fetched yet.';

export function descriptionView(
  detail: Pick<IncidentDetail, 'description' | 'descriptionFetchedAt'>,
  fetch: FetchStatus,
  online: boolean | null,
  now: number,
): DescriptionView {
  if (detail.description !== null)
    return { kind: 'stored', text: detail.description, fetchedAt: detail.descriptionFetchedAt };
  if (fetch.status === 'fetching') {
    const slow = now - fetch.since > 3_000;
    return {
      kind: 'fetching',
      text: slow
        ? 'Still fetching the description… The API has not answered yet; Blotter retries a few times before giving up.'
        : 'Fetching the description from the API…',
    };
  }
  if (fetch.status === 'failed') {
    const { problem, action } = fetch.problem;
    return {
      kind: 'not-fetched',
      text: NOT_YET,
      reason: [problem, action].filter(Boolean).join(' '),
      button: 'Try again',
    };
  }
  if (detail.descriptionFetchedAt !== null) {
    return {
      kind: 'gone',
      text: 'The API no longer has this incident, so its description cannot be fetched (it was removed, or it has left the plan’s data window).',
    };
  }
  if (online === false) {
    return {
      kind: 'not-fetched',
      text: NOT_YET,
      reason: 'Blotter is offline: the API cannot be reached. It can be fetched once the connection is back.',
      button: 'Try anyway',
    };
  }
  return {
    kind: 'not-fetched',
    text: NOT_YET,
    reason: 'Descriptions come from the API, one request per incident.',
    button: 'Fetch description',
  };
}
