// Module resolution hooks for end-to-end tests: every OpenTelemetry module the process resolves is
// appended to the file named by TEST_MODULE_LOG.
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const log = process.env.TEST_MODULE_LOG;
  if (log && result.url.includes("/@opentelemetry/")) appendFileSync(log, `${result.url}\n`);
  return result;
}
