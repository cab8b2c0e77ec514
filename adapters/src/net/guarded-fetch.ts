import { isIP } from "node:net";
import type { Agent } from "undici";
import { addressRefusal, isLoopback, type OutboundPolicy } from "./address-policy.js";
import { guardedLookup, OutboundRefused } from "./guarded-lookup.js";

/** The largest answer read from an outside server by default: 1 MiB. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface GuardedFetchOptions extends OutboundPolicy {
  /** Answers longer than this are cut off with an error; default `MAX_ANSWER_BYTES`. */
  readonly maxAnswerBytes?: number;
}

/**
 * A `fetch` for URLs an admin gave (custom providers, and whatever else calls servers named at
 * runtime): every connection, redirects included, goes to an address the policy allows, checked by
 * the lookup the socket connects with (`guardedLookup`), so there is no window between the check
 * and the connection for DNS to answer differently; an IP literal is checked before connecting;
 * plain `http:` is refused unless the test switch allows it toward loopback. Answers are cut off
 * past `maxAnswerBytes`. undici is loaded on the first call.
 */
export function guardedFetch(options: GuardedFetchOptions = {}): typeof fetch {
  const policy: OutboundPolicy = { allowLoopbackForTests: options.allowLoopbackForTests === true };
  const limit = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  let client: Promise<{ agent: Agent; fetch: typeof import("undici").fetch }> | undefined;
  const load = () =>
    (client ??= import("undici").then(({ Agent, buildConnector, fetch }) => {
      const connect = buildConnector({ lookup: guardedLookup(policy), timeout: 10_000 } as never);
      const agent = new Agent({
        connect(opts, callback) {
          const host = opts.hostname.replace(/^\[|\]$/g, "");
          if (opts.protocol === "http:" && !policy.allowLoopbackForTests) {
            return callback(new OutboundRefused(`plain http to ${host} is not allowed`), null);
          }
          if (isIP(host) !== 0) {
            const refusal = addressRefusal(host, policy);
            if (refusal !== null) return callback(new OutboundRefused(refusal), null);
            if (opts.protocol === "http:" && !isLoopback(host)) {
              return callback(new OutboundRefused(`plain http to ${host} is not allowed`), null);
            }
          } else if (opts.protocol === "http:" && !/^localhost$|\.localhost$/i.test(host)) {
            return callback(new OutboundRefused(`plain http to ${host} is not allowed`), null);
          }
          return connect(opts, callback);
        },
      });
      return { agent, fetch };
    }));
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const { agent, fetch: undiciFetch } = await load();
    const response = (await undiciFetch(
      input as never,
      { ...(init as object), dispatcher: agent } as never,
    )) as unknown as Response;
    return limitedAnswer(response, limit);
  }) as typeof fetch;
}

/** `response` whose body errors once more than `limit` bytes have come (or are announced). */
export function limitedAnswer(response: Response, limit: number): Response {
  const announced = Number(response.headers.get("content-length") ?? "0");
  if (announced > limit) {
    void response.body?.cancel();
    throw new OutboundRefused(`the answer is larger than ${limit} bytes`);
  }
  if (response.body === null) return response;
  let seen = 0;
  const counting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) controller.error(new OutboundRefused(`the answer is larger than ${limit} bytes`));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counting), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
