import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { API_VERSION_HEADER } from "./api-version.js";
import type { AppDeps } from "./app-deps.js";
import type { AppEnv } from "./app-env.js";
import { basePathGetter, DEFAULT_BASE_PATHS } from "./base-path.js";
import { type BodyFailure, bodyFailureOf, bodyReadAhead } from "./body-ahead.js";
import { proxyTrust } from "./client-address.js";
import { errorResponse, statusOf, toAuthError } from "./errors.js";
import { answerRefused, DeadlinePassedError, requestDeadline } from "./flow-control/index.js";
import { httpFailures } from "./http-failures.js";
import { incomingOf } from "./incoming.js";
import { apiVersion } from "./middleware/api-version.js";
import { fastCors } from "./middleware/cors.js";
import { applyEndpointGuards, type Guarded } from "./middleware/endpoint-guards.js";
import { MAX_BODY_BYTES } from "./middleware/json-body.js";
import { requestContext } from "./middleware/request-context.js";
import { SplitRouter } from "./router.js";
import type { StatusTable } from "./statuses.js";

// The reference's CORS policy (rs/cors in GoTrue): any origin, credentials allowed.
const CORS_HEADERS = [
  "Accept",
  "Authorization",
  "Content-Type",
  "X-Client-IP",
  "X-Client-Info",
  "X-JWT-AUD",
  "x-use-cookie",
  API_VERSION_HEADER,
  "apikey",
  // RFC 9449: a browser client sends its DPoP proof to /oauth/token, /oauth/par and /oauth/userinfo.
  "DPoP",
];

/** The answer to a body the server could not read ahead (server.ts); the connection is closed after it. */
function bodyRefusal(c: Context<AppEnv>, failure: BodyFailure, timeoutMs: number | undefined): Response {
  if (failure === "too_large") return errorResponse(c, httpFailures.bodyTooLarge(MAX_BODY_BYTES));
  if (failure === "timed_out") return errorResponse(c, httpFailures.bodyTimeout(timeoutMs));
  return errorResponse(c, httpFailures.bodyEndedEarly());
}

/** What the app serves, assembled by the composition root (composition/app.ts) from the modules. */
export interface Served {
  /** The HTTP status of every error code and failure the modules own. */
  readonly statuses: StatusTable;
  /** Every endpoint the routes declare, whose guards (rate limits, captcha, pacing) go in front of it. */
  readonly endpoints: readonly Guarded[];
  /** The modules' routes, in order (http/endpoint.ts `routesOf`). */
  readonly routes: Hono<AppEnv>;
}

/**
 * Builds the Hono application: the middleware every request goes through, then `served`'s routes.
 * It does not listen; `server.ts` does, tests call `app.request()`.
 */
export function createHttpApp(deps: AppDeps, served: Served): Hono<AppEnv> {
  const app = new Hono<AppEnv>({
    getPath: basePathGetter(deps.basePaths ?? DEFAULT_BASE_PATHS),
    router: new SplitRouter(),
  });

  app.use(
    requestContext({
      logger: deps.logger,
      requestIdHeader: deps.requestIdHeader,
      proxyTrust: proxyTrust(deps.trustedProxyHops ?? 0, deps.trustedProxies),
      statuses: served.statuses,
    }),
  );
  if (deps.telemetry) app.use(deps.telemetry);
  app.use(apiVersion());
  app.use(
    fastCors({
      origin: (origin: string) => origin || "*",
      credentials: true,
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      allowHeaders: [...CORS_HEADERS, ...(deps.corsAllowedHeaders ?? [])],
      // DPoP-Nonce and WWW-Authenticate (RFC 9449 §8, §7.1): a browser client reads the nonce to retry
      // with, at /oauth/token and at /oauth/userinfo.
      exposeHeaders: [
        "X-Total-Count",
        "Link",
        API_VERSION_HEADER,
        "x-sb-error-code",
        "DPoP-Nonce",
        "WWW-Authenticate",
      ],
    }),
  );
  // A request the admission queue refused (server.ts) is answered here, before any route's work.
  app.use(answerRefused());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => {
        c.header("Allow", methods.join(", "));
        return errorResponse(c, httpFailures.methodNotAllowed(c.req.method));
      },
    }),
  );
  const tooLarge = (c: Context<AppEnv>) => errorResponse(c, httpFailures.bodyTooLarge(MAX_BODY_BYTES));
  const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  // hono's bodyLimit reads `c.req.raw.body`, which makes @hono/node-server build a full WHATWG Request
  // (headers, AbortController, a stream the body is then read through) for every request. No route
  // reads a GET or HEAD body, so those skip it; a body of declared length (Node's parser holds it to
  // that length) is judged by the header, as bodyLimit itself does, and then read on the fast path.
  app.use((c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    // Read ahead by the server (server.ts): within its limits, or already refused.
    const incoming = incomingOf(c);
    const failure = bodyFailureOf(incoming);
    if (failure !== undefined) return Promise.resolve(bodyRefusal(c, failure, deps.bodyTimeoutMs));
    if (bodyReadAhead(incoming)) return next();
    const declared = c.req.header("content-length");
    if (declared === undefined || c.req.header("transfer-encoding") !== undefined) return limitBody(c, next);
    return Number.parseInt(declared, 10) > MAX_BODY_BYTES ? Promise.resolve(tooLarge(c)) : next();
  });
  // 504 only while nothing has committed; the ports below ask the deadline before each commit.
  // Handlers pass `c.get("deps")` (bound to the request's deadline) to the use cases they call.
  app.use(requestDeadline(deps.maxRequestDurationMs ?? 10_000, deps.auth));

  applyEndpointGuards(app, deps, served.endpoints);

  // Each module's routes, in the list's order; no two modules answer one method and path (modules/).
  app.route("/", served.routes);

  app.notFound((c) => errorResponse(c, httpFailures.routeNotFound()));
  app.onError((thrown, c) => {
    if (thrown instanceof DeadlinePassedError) {
      // Already answered 504; this is the late handler, whose change has just been rolled back.
      c.get("log").warn("request timed out before its change committed: rolled back");
      return errorResponse(c, httpFailures.requestTimeout());
    }
    const cause = thrown instanceof HTTPException ? thrown.cause : thrown;
    const error = toAuthError(cause);
    if (statusOf(c, error) >= 500) c.get("log").error({ err: cause }, "request failed");
    return errorResponse(c, error);
  });
  return app;
}
