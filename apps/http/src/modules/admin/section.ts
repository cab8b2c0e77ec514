/** The admin API: how its user list pages. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("Admin API");
export const variables = {
  cursorPagination: variable({
    key: "EXPERIMENTAL_CURSOR_PAGINATION_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "`GET /admin/users` without `page` or `per_page` answers keyset pages (`limit`, `cursor`; `pagination.next_cursor`), as the reference's flag of the same name. A request with `cursor` or `limit` is answered so whatever this says.",
  }),
};

export interface AdminConfig {
  /** Cursor pages by default (when neither `page` nor `per_page` is given). */
  readonly cursorPagination: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export const settle = (a: ReturnType<typeof read>): { admin: AdminConfig } => ({
  admin: { cursorPagination: a.cursorPagination },
});

declare module "../../config/shape.js" {
  interface Config {
    readonly admin: AdminConfig;
  }
}
