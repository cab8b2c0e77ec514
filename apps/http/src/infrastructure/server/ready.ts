import { ref } from "../../http/operation.js";
import { endpoint } from "../../modules/module.js";
import { READINESS_TIMEOUT_MS, type ReadinessCheck } from "./readiness-check.js";

/** Resolves "ok" when `check` settles in time, "down" when it rejects or takes too long. */
async function probe(check: ReadinessCheck, timeoutMs: number): Promise<"ok" | "down"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"down">((resolve) => {
    timer = setTimeout(() => resolve("down"), timeoutMs);
  });
  try {
    return await Promise.race([check.check().then(() => "ok" as const), late]);
  } catch {
    return "down";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /health/ready`: readiness for a load balancer. 200 `{status:"ok", checks:{database:"ok"}}`
 * when every dependency answers; 503 `{status:"unavailable", checks:{database:"down"}}` naming the
 * one that does not, so traffic moves elsewhere during an outage. `/health` stays liveness only.
 *
 * `warnings` (e.g. `{mail: "…"}`) name a misconfiguration an operator must fix; they are shown but do
 * not make the instance unready: every instance shares the configuration, so a load balancer could
 * only take them all out, turning a degraded service into an outage.
 */
export const readyEndpoint = endpoint(
  {
    method: "get",
    path: "/health/ready",
    summary: "Readiness for a load balancer: whether the database answers (within 2 s).",
    description:
      "A misconfiguration an operator must fix is named in `warnings` without making the instance unready.",
    access: "public",
    responses: {
      200: { description: "Every dependency answers.", body: ref("Readiness") },
      503: { description: "A dependency does not answer; `checks` names it.", body: ref("Readiness") },
    },
  },
  ({ readiness: checks = [], readinessTimeoutMs: timeoutMs = READINESS_TIMEOUT_MS, readinessWarnings }) => {
    const warnings = readinessWarnings ?? {};
    return [
      async (c) => {
        const results = await Promise.all(
          checks.map(async (check) => [check.name, await probe(check, timeoutMs)]),
        );
        const ready = results.every(([, state]) => state === "ok");
        c.header("cache-control", "no-store");
        const shown = Object.keys(warnings).length > 0 ? { warnings } : {};
        return c.json(
          { status: ready ? "ok" : "unavailable", checks: Object.fromEntries(results), ...shown },
          ready ? 200 : 503,
        );
      },
    ];
  },
);
