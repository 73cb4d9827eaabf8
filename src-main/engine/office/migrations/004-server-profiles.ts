/**
 * What the office's leaders learned about a server (sync/serverProfile.ts), one profile per base
 * URL, as JSON in the same shape as a data folder's `server_profiles`: a leader takes the office's
 * profiles when it takes a lease and writes what it learns back at once, so the next leader — on
 * any desktop — neither probes v1 again nor relearns the radius, the types spelling or the page cap.
 */
export const name = 'server-profiles';

export const sql = /* sql */ `
CREATE TABLE server_profiles (
  base_url    text   PRIMARY KEY,
  profile     jsonb  NOT NULL,
  updated_at  bigint NOT NULL
);
`;
