// Module resolution hooks for end-to-end tests: every module the process resolves whose URL matches
// TEST_MODULE_LOG_PATTERN (a regular expression, default: OpenTelemetry's packages) is appended to the
// file named by TEST_MODULE_LOG.
import { appendFileSync } from "node:fs";

const pattern = new RegExp(process.env.TEST_MODULE_LOG_PATTERN || "/@opentelemetry/");

/** Appends `url` to the log when it matches. */
export function logModule(url) {
  const log = process.env.TEST_MODULE_LOG;
  if (log && pattern.test(url)) appendFileSync(log, `${url}\n`);
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  logModule(result.url);
  return result;
}
