/** API: where the server listens, how clients reach it, request handling. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { must, orEmbedded, type SettleContext } from "../../config/sections/context.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("API");

/** `API_BODY_TIMEOUT` under the default request deadline. */
const DEFAULT_BODY_TIMEOUT_MS = 5_000;
export const variables = {
  host: variable({
    key: "API_HOST",
    kind: k.host,
    computedDefault: "`0.0.0.0`; `127.0.0.1` in embedded mode",
    description:
      "Address to listen on. In embedded mode (no database URL) the default is loopback only, so a development server is not reachable from the network.",
  }),
  port: variable({
    key: "API_PORT",
    aliases: ["AUTHSVC_PORT", "PORT"],
    kind: k.port(),
    default: "8081",
    description: "Port to listen on; 0 picks a free port.",
  }),
  externalUrl: variable({
    key: "API_EXTERNAL_URL",
    aliases: ["API_EXTERNAL_URL"],
    kind: k.url,
    required: "unless embedded",
    computedDefault: "`http://localhost:<port>` in embedded mode",
    description: "URL at which clients reach this service. Email links start with it.",
  }),
  endpoint: variable({
    key: "API_ENDPOINT",
    kind: k.text,
    description: "Multi-instance mode only (not supported). Read and ignored.",
  }),
  requestIdHeader: variable({
    key: "REQUEST_ID_HEADER",
    aliases: ["AUTHSVC_API_REQUEST_ID_HEADER"],
    kind: k.headerName,
    description: "Incoming header whose value becomes the request ID, instead of a fresh one.",
  }),
  maxRequestDuration: variable({
    key: "API_MAX_REQUEST_DURATION",
    kind: k.duration(1),
    default: "10s",
    description: "Requests running longer are answered with 504 `request_timeout`.",
  }),
  bodyTimeout: variable({
    key: "API_BODY_TIMEOUT",
    kind: k.duration(1),
    computedDefault: "`5s`, or half of `API_MAX_REQUEST_DURATION` when that is shorter than 10s",
    description:
      "Longest a client may take to send a request's body once its headers are in; slower ones are answered 408 `request_timeout` and their connection closed. The body is read before the request takes one of `API_MAX_CONCURRENT_REQUESTS`, so clients that trickle bodies hold only their sockets. Must be shorter than `API_MAX_REQUEST_DURATION`. (Headers must arrive within 2 s.)",
  }),
  maxConcurrentRequests: variable({
    key: "API_MAX_CONCURRENT_REQUESTS",
    kind: k.wholeNumber(),
    default: "64",
    description:
      "Most requests this instance works on at once; more wait their turn in arrival order (their wait is logged as `queued_ms` and counted in `duration_ms`, not in the request time limit); `GET /health` is answered past them. It bounds the memory a flood of connections takes: requests past the database pool only wait anyway. 0: no limit.",
  }),
  maxQueuedRequests: variable({
    key: "API_MAX_QUEUED_REQUESTS",
    kind: k.wholeNumber(),
    default: "4096",
    description:
      'Most requests waiting their turn for `API_MAX_CONCURRENT_REQUESTS` at once; one more is answered at once with 503 (`unexpected_failure`, "Server busy") and `Retry-After`, instead of waiting without bound. `GET /health` is answered past them. 0: no bound.',
  }),
  maxQueueWait: variable({
    key: "API_MAX_QUEUE_WAIT",
    kind: k.duration(),
    default: "10s",
    description:
      "Longest a request waits its turn for `API_MAX_CONCURRENT_REQUESTS`; past it, it is answered 503 with `Retry-After` (this wait, in whole seconds) without being worked on. 0: no limit.",
  }),
  messageConcurrency: variable({
    key: "API_MESSAGE_CONCURRENCY",
    kind: k.wholeNumber(),
    default: "1",
    description:
      "Most requests to `/otp`, `/magiclink`, `/recover` and `/resend` worked on at once by this instance; the others wait their turn in arrival order, so a burst of them neither takes the database connections nor crowds out the CPU every other request needs. Each turn is two short statements (the answer is held to a 50 ms step anyway, and the rest follows it): one turn at a time serves several hundred such requests a second against a local database; raise it when the database is far away. 0: no limit.",
  }),
  trustedProxyHops: variable({
    key: "API_TRUSTED_PROXY_HOPS",
    kind: k.wholeNumber({ max: 16 }),
    default: "0",
    description:
      "Proxies (load balancers, CDNs) in front of this server that each append the address they received a request from to `X-Forwarded-For`. The client address — what the per-IP limits count, captcha's `remoteip`, the address an MFA challenge is bound to, audit entries' `ip_address` — is the entry this many places from the right; entries further left are written by the client and ignored. 0: the connection's peer, `X-Forwarded-For` ignored. Set it to the number of proxies, no more: one too many lets clients choose their address.",
  }),
  trustedProxies: variable({
    key: "API_TRUSTED_PROXIES",
    kind: k.addressRangeList,
    default: "",
    description:
      "Addresses and CIDR ranges of proxies believed wherever they stand: past the `API_TRUSTED_PROXY_HOPS` hops, an `X-Forwarded-For` hop whose address is in these ranges is skipped too, and the first address outside them is the client (e.g. a CDN's published ranges in front of a load balancer). Empty: only the counted hops.",
  }),
  corsAllowedHeaders: variable({
    key: "CORS_ALLOWED_HEADERS",
    kind: k.headerList,
    default: "",
    description: "Request headers allowed by CORS in addition to the built-in ones.",
  }),
  basePaths: variable({
    key: "API_BASE_PATHS",
    kind: k.pathList,
    default: "/,/auth/v1",
    description:
      "Paths the whole API is served under. `/auth/v1` is where supabase-js `createClient(url, key)` calls auth; drop `/` to serve only under a prefix.",
  }),
};

export interface ApiConfig {
  readonly host: string;
  readonly port: number;
  /** URL at which clients reach the service; email links start with it. */
  readonly externalUrl: string;
  /** Multi-instance mode only (unsupported). */
  readonly endpoint: string | undefined;
  readonly requestIdHeader: string | undefined;
  readonly maxRequestDurationMs: number;
  /** Longest a client may take to send a body once its headers are in. */
  readonly bodyTimeoutMs: number;
  /** Requests worked on at once; 0 for no limit. */
  readonly maxConcurrentRequests: number;
  /** Requests waiting for a slot at most; 0 for no bound. */
  readonly maxQueuedRequests: number;
  /** Longest a request waits for a slot, in milliseconds; 0 for no limit. */
  readonly maxQueueWaitMs: number;
  /** Message-sending requests worked on at once; 0 for no limit. */
  readonly messageConcurrency: number;
  /** Proxies in front that append to `X-Forwarded-For`; 0: the connection's peer is the client. */
  readonly trustedProxyHops: number;
  /** Addresses and CIDR ranges of proxies believed wherever they stand in `X-Forwarded-For`. */
  readonly trustedProxies: readonly string[];
  /** Extra request headers allowed by CORS, on top of the built-in ones. */
  readonly corsAllowedHeaders: readonly string[];
  /** Paths the whole API is served under (`/` is the root). */
  readonly basePaths: readonly string[];
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(values: ReturnType<typeof read>, ctx: SettleContext): { api: ApiConfig } {
  // Inside the request deadline, so that no limit on a request outlasts the deadline itself.
  const bodyTimeout = values.bodyTimeout ?? Math.min(DEFAULT_BODY_TIMEOUT_MS, values.maxRequestDuration / 2);
  if (bodyTimeout >= values.maxRequestDuration) {
    ctx.r.problem(
      variables.bodyTimeout.name,
      `must be shorter than ${variables.maxRequestDuration.name} (${values.maxRequestDuration} ms)`,
    );
  }
  let host = values.host;
  if (host === undefined && ctx.embedded) {
    host = "127.0.0.1";
    ctx.notices.push(`${variables.host.name} not set: listening on 127.0.0.1 only (embedded mode)`);
  }
  const localUrl = `http://localhost:${values.port}`;
  const externalUrl =
    values.externalUrl ?? orEmbedded(ctx, variables.externalUrl, () => localUrl, `using ${localUrl}`);
  return {
    api: {
      host: host ?? "0.0.0.0",
      port: values.port,
      externalUrl: must(ctx, externalUrl, variables.externalUrl),
      endpoint: values.endpoint,
      requestIdHeader: values.requestIdHeader,
      maxRequestDurationMs: values.maxRequestDuration,
      bodyTimeoutMs: bodyTimeout,
      maxConcurrentRequests: values.maxConcurrentRequests,
      maxQueuedRequests: values.maxQueuedRequests,
      maxQueueWaitMs: values.maxQueueWait,
      messageConcurrency: values.messageConcurrency,
      trustedProxyHops: values.trustedProxyHops,
      trustedProxies: values.trustedProxies,
      corsAllowedHeaders: values.corsAllowedHeaders,
      basePaths: values.basePaths,
    },
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly api: ApiConfig;
  }
}
