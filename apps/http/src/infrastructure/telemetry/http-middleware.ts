import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import type { Instruments } from "./instruments.js";
import { countOutcome } from "./outcomes.js";
import { routeParamAttributes, routeTemplate } from "./route.js";

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** Liveness and readiness probes come every few seconds and say nothing about the service: no span. */
const UNTRACED = new Set(["/health", "/health/ready"]);

// A request no route answered is named by its method alone: raw paths would make every probe of
// an unknown URL a span name and a metric series of its own.
const UNMATCHED = "";

/** The span's attributes once the response is known, in current and older semantic-convention names. */
function responseAttributes(c: Context<AppEnv>, route: string): Attributes {
  const status = c.res.status;
  const attributes: Attributes = {
    "http.route": route,
    ...routeParamAttributes(c),
    "http.response.status_code": status,
    "http.status_code": status,
    "authsvc.request_id": c.get("requestId"),
  };
  const code = c.res.headers.get("x-sb-error-code");
  if (code) attributes["authsvc.error_code"] = code;
  return attributes;
}

/**
 * One server span per request, named by method and parametrised route (`PUT /admin/users/{user_id}`),
 * continuing an incoming `traceparent`; and the HTTP metrics. Only the path is recorded, never the
 * query (links carry tokens there) nor headers or bodies.
 */
export function httpTelemetry(options: {
  tracer: Tracer | undefined;
  instruments: Instruments | undefined;
}): MiddlewareHandler<AppEnv> {
  const { tracer, instruments } = options;
  return async (c, next) => {
    const started = performance.now();
    const method = c.req.method;
    const parent =
      tracer === undefined || UNTRACED.has(c.req.path)
        ? undefined
        : propagation.extract(ROOT_CONTEXT, c.req.raw.headers, headerGetter);
    const span =
      tracer === undefined || parent === undefined
        ? undefined
        : tracer.startSpan(
            method,
            {
              kind: SpanKind.SERVER,
              attributes: {
                "http.request.method": method,
                "http.method": method,
                "url.path": c.req.path,
                "url.scheme": new URL(c.req.url).protocol.slice(0, -1),
              },
            },
            parent,
          );
    try {
      if (span === undefined || parent === undefined) await next();
      else await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeTemplate(c) ?? UNMATCHED;
      const status = c.res.status;
      if (span !== undefined) {
        span.updateName(route === UNMATCHED ? method : `${method} ${route}`);
        span.setAttributes(responseAttributes(c, route));
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      if (instruments !== undefined) {
        instruments.httpStatusCodes.add(1, { code: String(status), "http.route": route });
        instruments.httpDuration.record((performance.now() - started) / 1000, {
          "http.request.method": method,
          "http.route": route,
          "http.response.status_code": status,
        });
        countOutcome(instruments, { route, status, code: c.res.headers.get("x-sb-error-code") ?? undefined });
      }
    }
  };
}
