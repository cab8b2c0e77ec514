import type { AuditRecord, AuditSearchField } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { AdminDeps } from "./deps.js";
import { pageWindow } from "./paging.js";

/** The reference's `query` scopes and the payload fields each searches. */
const SCOPES: Readonly<Record<string, readonly AuditSearchField[]>> = {
  author: ["actor_username", "actor_name"],
  action: ["action"],
  type: ["log_type"],
};

/** One page of the audit log, with what the HTTP layer needs for `X-Total-Count` and `Link`. */
export interface AuditPage {
  readonly entries: AuditRecord[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
}

/**
 * Lists the audit log newest first (`GET /admin/audit`), paged as the admin user list. `query` is the
 * reference's `<scope>:<text>`: `author:` (actor's username or name), `action:` or `type:` (log type),
 * each matching entries whose field contains the text, ignoring case; an empty text matches every entry,
 * an unknown scope (or no `:`) is refused.
 */
export async function adminListAudit(
  deps: Pick<AdminDeps, "store">,
  input: { page?: number; perPage?: number; query?: string },
): Promise<Result<AuditPage>> {
  const window = pageWindow(input);
  if (!window.ok) return window;
  const { page, perPage, offset } = window.value;
  let search: { fields: readonly AuditSearchField[]; text: string } | undefined;
  if (input.query !== undefined && input.query !== "") {
    const colon = input.query.indexOf(":");
    const scope = colon < 0 ? "" : input.query.slice(0, colon);
    const fields = Object.hasOwn(SCOPES, scope) ? SCOPES[scope] : undefined;
    if (fields === undefined) return err(failures.auditQueryInvalid(input.query));
    const text = input.query.slice(colon + 1);
    if (text !== "") search = { fields, text };
  }
  const { entries, total } = await deps.store.audit.list({ offset, limit: perPage, search });
  return ok({ entries, total, page, perPage });
}
