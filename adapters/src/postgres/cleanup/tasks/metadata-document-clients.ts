import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/** A day past its document's expiry: a client used since would have been fetched again (and kept). */
const GRACE_SECONDS = 24 * 60 * 60;

/**
 * Clients of client ID metadata documents nobody uses: anyone can make `/oauth/authorize` store one
 * (a row per URL, counted per client address), so one whose document went stale a day ago and that
 * holds no request, no session and no consent in force is removed. Its next use fetches its document
 * again as a new client; a client in use is fetched again at its use, which moves its expiry on.
 */
export const metadataDocumentClients: CleanupTask = {
  name: "oauth_metadata_document_clients",
  run: ({ sql, namespace, limit }) => {
    const ns = sql(namespace);
    return removeBatch(sql, {
      namespace,
      table: "oauth_clients",
      key: ["id"],
      stale: sql`(
        metadata_url is not null
        and metadata_expires_at < ${secondsAgo(sql, GRACE_SECONDS)}
        and not exists (select 1 from ${ns}.oauth_authorizations a where a.client_id = oauth_clients.id)
        and not exists (select 1 from ${ns}.sessions s where s.oauth_client_id = oauth_clients.id)
        and not exists (
          select 1 from ${ns}.oauth_consents c
          where c.client_id = oauth_clients.id and c.revoked_at is null
        )
      )`,
      limit,
    });
  },
};
