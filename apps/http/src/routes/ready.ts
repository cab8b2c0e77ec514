import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";

/** One dependency the server cannot answer without (the database). */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves when the dependency answers; rejects (or outlasts the timeout) when it does not. */
  check(): Promise<void>;
}

/** How long one check may take before its dependency counts as down. */
export const READINESS_TIMEOUT_MS = 2_000;

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
export const readyRoutes = (
  checks: readonly ReadinessCheck[],
  timeoutMs = READINESS_TIMEOUT_MS,
  warnings: Readonly<Record<string, string>> = {},
) =>
  new Hono<AppEnv>().get("/health/ready", async (c) => {
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
  });
