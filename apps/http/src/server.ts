import { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import type { Hono } from "hono";
import { admission } from "./http/admission.js";
import { DEFAULT_BASE_PATHS } from "./http/base-path.js";

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
 * once, the others wait their turn (http/admission.ts).
 */
export function listen(
  app: Hono<never> | Hono,
  options: {
    host: string;
    port: number;
    maxConcurrentRequests?: number;
    /** Where `GET …/health` is answered past the queue (`API_BASE_PATHS`); default `/` and `/auth/v1`. */
    basePaths?: readonly string[];
  },
): Promise<RunningServer> {
  const admit = admission(options.maxConcurrentRequests ?? 0);
  const isLiveness = livenessCheck(options.basePaths ?? DEFAULT_BASE_PATHS);
  return new Promise((resolve, reject) => {
    const server = createAdaptorServer({
      fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
        // Liveness is answered past the queue: an orchestrator must not restart a busy instance.
        const response = isLiveness(env.incoming)
          ? await app.fetch(request, env)
          : await admit.run(env.incoming, () => app.fetch(request, env));
        // A request answered before its body was read to the end (413, or a refusal ahead of the
        // body) leaves bytes on the socket that the server will not parse: it closes the socket,
        // so it must say so, or a keep-alive client reuses it and its next request fails.
        if (env.incoming instanceof IncomingMessage && !env.incoming.complete)
          env.outgoing.setHeader("connection", "close");
        return response;
      },
      hostname: options.host,
      // The reference gives clients 2 s to send their headers (slowloris protection).
      serverOptions: { headersTimeout: 2_000, requestTimeout: 30_000 },
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
