import { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { DEFAULT_BASE_PATHS } from "./http/base-path.js";
import { BodyBudget, readBodyAhead } from "./http/body-ahead.js";
import { clientAddressFrom, limitedBlock, NO_PROXY, type ProxyTrust } from "./http/client-address.js";
import { admission, markRefused } from "./http/flow-control/index.js";
import { MAX_BODY_BYTES } from "./http/middleware/json-body.js";

export interface RunningServer {
  readonly url: string;
  /** Stops accepting connections and resolves once every in-flight request has been answered. */
  close(): Promise<void>;
}

/**
 * Connections the kernel may hold completed but not yet accepted (capped by net.core.somaxconn).
 * Node's default, 511, is smaller than a burst of clients connecting at once (a pool of 1,000
 * keep-alive connections opened together): the handshakes past it are dropped and retried a second
 * or more later, and those clients' first requests wait that long.
 */
const LISTEN_BACKLOG = 4096;

/** The reference gives clients 2 s to send their headers (slowloris protection). */
const HEADERS_TIMEOUT_MS = 2_000;

/**
 * How often Node looks for connections past `headersTimeout` and `requestTimeout`. Its default, 30 s,
 * let a client that never finished its headers keep its socket up to 32 s instead of 2.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

/** Default `bodyTimeoutMs`: `API_BODY_TIMEOUT`'s default. */
export const DEFAULT_BODY_TIMEOUT_MS = 5_000;

/**
 * What a request's body may hold in memory ahead of admission without drawing on the shared budget:
 * every auth request but one carrying large metadata fits.
 */
const BODY_FREE_BYTES = 16 * 1024;

/** Memory all bodies beyond their free share may hold at once: 64 admitted requests' worth of full bodies. */
const BODY_BUDGET_BYTES = 64 * MAX_BODY_BYTES;

/** What one client address (an IPv6 client's /64) may hold of that budget: eight full bodies. */
const BODY_BUDGET_PER_CLIENT_BYTES = 8 * MAX_BODY_BYTES;

/** The client a Node request's body is charged to: its address as the per-IP limits count it. */
function bodyClient(incoming: IncomingMessage, trust: ProxyTrust): string | undefined {
  // Node joins repeated X-Forwarded-For lines into one, in order.
  const forwarded = incoming.headers["x-forwarded-for"];
  const forwardedFor = Array.isArray(forwarded) ? forwarded.join(", ") : forwarded;
  const address = clientAddressFrom(incoming.socket.remoteAddress, forwardedFor, trust);
  return address === undefined ? undefined : limitedBlock(address);
}

/** Whether `incoming` is `GET <base path>/health` for one of `basePaths`, query string or not. */
function livenessCheck(basePaths: readonly string[]) {
  const paths = new Set(basePaths.map((base) => `${base.replace(/\/+$/, "")}/health`));
  return (incoming: { method?: string | undefined; url?: string | undefined }) => {
    if (incoming.method !== "GET" || incoming.url === undefined) return false;
    const query = incoming.url.indexOf("?");
    return paths.has(query === -1 ? incoming.url : incoming.url.slice(0, query));
  };
}

/**
 * Serves `app` on `host:port` (port 0 picks a free one) and resolves once it listens. At most
 * `maxConcurrentRequests` (`API_MAX_CONCURRENT_REQUESTS`; 0 or absent: no limit) are in the app at
 * once, the others wait their turn (http/flow-control/admission.ts): at most `maxQueuedRequests` of
 * them, each for at most `maxQueueWaitMs`; past either, the app answers 503 with `Retry-After` at once.
 */
export function listen(
  app: Hono<never> | Hono,
  options: {
    host: string;
    port: number;
    maxConcurrentRequests?: number;
    /** Most requests waiting for a slot (`API_MAX_QUEUED_REQUESTS`); 0 or absent: no bound. */
    maxQueuedRequests?: number;
    /** Longest a request waits for a slot (`API_MAX_QUEUE_WAIT`); 0 or absent: no bound. */
    maxQueueWaitMs?: number;
    /** Where `GET …/health` is answered past the queue (`API_BASE_PATHS`); default `/` and `/auth/v1`. */
    basePaths?: readonly string[];
    /** Longest a client may take to send a request's body once its headers are in (`API_BODY_TIMEOUT`). */
    bodyTimeoutMs?: number;
    /** Which proxies' `X-Forwarded-For` entries name the client (`API_TRUSTED_PROXY_HOPS`, `API_TRUSTED_PROXIES`). */
    proxyTrust?: ProxyTrust;
  },
): Promise<RunningServer> {
  const admit = admission(options.maxConcurrentRequests ?? 0, {
    maxQueued: options.maxQueuedRequests ?? 0,
    maxWaitMs: options.maxQueueWaitMs ?? 0,
  });
  // A refused client is asked to come back once a queued request would have been served or refused.
  const retryAfterSeconds = Math.max(1, Math.ceil((options.maxQueueWaitMs ?? 0) / 1000));
  const isLiveness = livenessCheck(options.basePaths ?? DEFAULT_BASE_PATHS);
  const bodyLimits = {
    maxBytes: MAX_BODY_BYTES,
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    freeBytes: BODY_FREE_BYTES,
    budget: new BodyBudget(BODY_BUDGET_BYTES, BODY_BUDGET_PER_CLIENT_BYTES),
  };
  const trust = options.proxyTrust ?? NO_PROXY;
  return new Promise((resolve, reject) => {
    const server = createAdaptorServer({
      fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
        // The body is read before the request is admitted: a client trickling it holds no slot. A
        // body that does not come (in time, or within the size limit) is refused, past the queue too:
        // the refusal costs nothing.
        const { incoming } = env;
        const ahead =
          incoming instanceof IncomingMessage
            ? await readBodyAhead(incoming, bodyLimits, () => bodyClient(incoming, trust))
            : undefined;
        let response: Response;
        try {
          // Liveness is answered past the queue: an orchestrator must not restart a busy instance.
          response =
            ahead?.failure !== undefined || isLiveness(env.incoming)
              ? await app.fetch(request, env)
              : await admit.run(
                  env.incoming,
                  () => app.fetch(request, env),
                  () => {
                    markRefused(env.incoming, retryAfterSeconds);
                    return app.fetch(request, env);
                  },
                );
        } finally {
          ahead?.release();
        }
        // A request answered before its body was read to the end (413, or a refusal ahead of the
        // body) leaves bytes on the socket that the server will not parse: it closes the socket,
        // so it must say so, or a keep-alive client reuses it and its next request fails.
        if (env.incoming instanceof IncomingMessage && !env.incoming.complete)
          env.outgoing.setHeader("connection", "close");
        return response;
      },
      hostname: options.host,
      serverOptions: {
        headersTimeout: HEADERS_TIMEOUT_MS,
        // A backstop only: the body's own limit (above) answers first, with a JSON error.
        requestTimeout: HEADERS_TIMEOUT_MS + bodyLimits.timeoutMs + 1_000,
        connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      },
    });
    server.once("error", reject);
    server.listen({ host: options.host, port: options.port, backlog: LISTEN_BACKLOG }, () => {
      const info = server.address() as AddressInfo;
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            // close() waits for in-flight requests; idle keep-alive sockets are closed at once
            // (Node 19+), so a client holding a connection open cannot delay shutdown.
            server.close(() => done());
            if ("closeIdleConnections" in server) server.closeIdleConnections();
          }),
      });
    });
  });
}
