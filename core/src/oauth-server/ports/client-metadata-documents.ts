/** What fetching a client ID metadata document gave: its JSON and how long it may be cached, or why not. */
export type FetchedClientDocument =
  | {
      readonly ok: true;
      /** The parsed JSON body, not yet validated. */
      readonly document: unknown;
      /** `Cache-Control`'s `max-age` (0 for `no-store` or `no-cache`); null when the answer says nothing. */
      readonly maxAgeSeconds: number | null;
    }
  | { readonly ok: false; readonly problem: string };

/** Fetches client ID metadata documents from the servers their URLs name. */
export interface ClientMetadataDocuments {
  /**
   * GETs `url` without following redirects, through the outbound guard (no private, loopback or
   * metadata address unless the policy allows it), within a size and a time limit, and parses it as
   * JSON. Never throws: every failure, the guard's refusals included, is `{ ok: false, problem }`.
   */
  fetch(url: string): Promise<FetchedClientDocument>;
}
