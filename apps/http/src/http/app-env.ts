import type { AuthDeps } from "@authsvc/core";
import type { UserWithIdentities } from "@authsvc/core/accounts";
import type { Logger } from "pino";
import type { ApiVersion } from "./api-version.js";
import type { RequestDeadline } from "./flow-control/deadline.js";
import type { ProxyTrust } from "./proxy-trust.js";
import type { StatusTable } from "./statuses.js";

/** The signed-in caller of a user endpoint. */
export interface UserAuth {
  readonly user: UserWithIdentities;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly sessionId: string | null;
}

/** What every request carries through the middleware chain. */
export type AppEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    apiVersion: ApiVersion;
    auth: UserAuth;
    adminRole: string;
    /** Proxies in front of the server whose `X-Forwarded-For` entries count (http/client-address.ts). */
    proxyTrust: ProxyTrust;
    /** The client address once found (`clientAddress`); null when the request has none. */
    clientAddress: string | null;
    /** The request's deadline (flow-control/request-deadline.ts). */
    deadline: RequestDeadline;
    /** The use cases' ports bound to this request's deadline: what handlers pass to use cases. */
    deps: AuthDeps;
    /** The HTTP status of each error code and failure, from the app's modules (statuses.ts). */
    statuses: StatusTable;
  };
};
