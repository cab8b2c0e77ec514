import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv, UserAuth } from "../app-env.js";
import { NO_PROXY, type ProxyTrust } from "../client-address.js";
import { admissionWaitMs } from "../flow-control/index.js";
import { incomingOf } from "../incoming.js";
import type { StatusTable } from "../statuses.js";

/** Response header carrying the request id when no `REQUEST_ID_HEADER` is configured. */
export const DEFAULT_REQUEST_ID_HEADER = "x-request-id";

// An inherited id is echoed into headers and logs, so it must be short and printable.
const SAFE_ID = /^[\w.:@/+=-]{1,128}$/;

/**
 * Gives every request an id (inherited from the configured header when present and sane, else a
 * fresh UUID), a child logger that stamps that id on every line, and one "request completed" line
 * with status and duration. The path is logged without its query string: links carry tokens there.
 */
export const requestContext =
  (options: {
    logger: Logger;
    requestIdHeader?: string | undefined;
    /** `API_TRUSTED_PROXY_HOPS` and `API_TRUSTED_PROXIES`, for `clientAddress` (http/client-address.ts). */
    proxyTrust?: ProxyTrust | undefined;
    /** The app's status table, for the error answers (http/errors.ts). */
    statuses: StatusTable;
  }): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const header = options.requestIdHeader;
    const inherited = header ? c.req.header(header) : undefined;
    const requestId = inherited && SAFE_ID.test(inherited) ? inherited : randomUUID();
    const log = options.logger.child({ request_id: requestId });
    c.set("requestId", requestId);
    c.set("log", log);
    c.set("proxyTrust", options.proxyTrust ?? NO_PROXY);
    c.set("statuses", options.statuses);
    const started = performance.now();
    // Before the handler: merged into the response it makes. Set after it, the header would make
    // @hono/node-server rebuild the response as a full WHATWG Response on every request.
    c.header(header ?? DEFAULT_REQUEST_ID_HEADER, requestId);
    await next();
    if (c.req.path === "/health") return;
    const status = c.res.status;
    // Time spent waiting to be admitted (http/flow-control/admission.ts) is part of what the client waited.
    const queued = admissionWaitMs(incomingOf(c));
    const fields = {
      method: c.req.method,
      path: c.req.path,
      status,
      duration_ms: Math.round((performance.now() - started + (queued ?? 0)) * 1000) / 1000,
      queued_ms: queued === undefined ? undefined : Math.round(queued * 1000) / 1000,
      error_code: c.res.headers.get("x-sb-error-code") ?? undefined,
      // Set by the authentication middleware of user endpoints only.
      user_id: (c.get("auth") as UserAuth | undefined)?.user.id,
    };
    if (status >= 500) log.error(fields, "request completed");
    else if (status >= 400) log.warn(fields, "request completed");
    else log.info(fields, "request completed");
  };
