import type { Dispatcher } from "undici";
import { parseTemplate, type Template } from "./go-template.js";

/** Where warnings go; pino's `logger.warn.bind(logger)` fits. */
export type Warn = (fields: Record<string, unknown>, msg: string) => void;

export interface TemplateSourceOptions {
  readonly warn: Warn;
  /** Whole fetch, headers and body, in ms. Default 10 s. */
  readonly timeoutMs?: number;
  /** How long a fetched template is reused, in ms. Default 10 min. */
  readonly ttlMs?: number;
  /** How long a failed fetch is remembered before trying again, in ms. Default 1 min. */
  readonly failureTtlMs?: number;
  /** Milliseconds since the epoch; injectable for tests of expiry. */
  readonly now?: () => number;
}

/** Custom templates by URL (`MAILER_TEMPLATES_<KIND>`), fetched over HTTP and cached. */
export interface TemplateSource {
  /** The parsed template at `url`, or undefined (after a warning) when it cannot be used. Never rejects. */
  get(url: string): Promise<Template | undefined>;
}

const MAX_BYTES = 1024 * 1024;

/** The URL as it may appear in a log: no userinfo, no query (a presigned URL carries its secret there). */
export function loggableUrl(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}

/**
 * Fetches templates with undici, with a timeout, following up to three redirects. A template is cached
 * for `ttlMs`; a failure (network error, non-2xx, oversized or unparsable body) is cached for
 * `failureTtlMs`, so a dead template server costs one attempt and one warning per interval, not one per
 * mail. Concurrent requests for one URL share one fetch.
 */
export function templateSource(options: TemplateSourceOptions): TemplateSource {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const failureTtlMs = options.failureTtlMs ?? 60_000;
  const now = options.now ?? Date.now;
  // undici is loaded by the first fetch, not at start: custom templates are rare.
  let client: Promise<{ request: typeof import("undici").request; dispatcher: Dispatcher }> | undefined;
  const undici = () =>
    (client ??= import("undici").then(({ Agent, interceptors, request }) => ({
      request,
      // An agent of its own: what others set as the process's global dispatcher does not apply here.
      dispatcher: new Agent().compose(interceptors.redirect({ maxRedirections: 3 })),
    })));
  const cache = new Map<string, { expiresAt: number; template: Promise<Template | undefined> }>();

  async function load(url: string): Promise<Template | undefined> {
    const fields = { template_url: loggableUrl(url) };
    try {
      const { request, dispatcher } = await undici();
      const response = await request(url, {
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      if (response.statusCode < 200 || response.statusCode > 299) {
        await response.body.dump();
        options.warn(
          { ...fields, status: response.statusCode },
          "mail template could not be fetched; using the default template",
        );
        return undefined;
      }
      return parseTemplate(await readText(response.body));
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      options.warn(
        { ...fields, error: { type: name, message } },
        "mail template could not be loaded; using the default template",
      );
      return undefined;
    }
  }

  return {
    get(url) {
      const cached = cache.get(url);
      if (cached && now() < cached.expiresAt) return cached.template;
      const entry = { expiresAt: Number.POSITIVE_INFINITY, template: load(url) };
      cache.set(url, entry);
      void entry.template.then((template) => {
        entry.expiresAt = now() + (template ? ttlMs : failureTtlMs);
      });
      return entry.template;
    },
  };
}

async function readText(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BYTES) throw new Error(`template larger than ${MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
