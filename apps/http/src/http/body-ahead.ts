import type { IncomingMessage } from "node:http";

/** Why a request's body could not be read before the request was admitted. */
export type BodyFailure = "too_large" | "timed_out" | "ended_early";

/** How much body a request may send, and how long it may take to send it. */
export interface BodyLimits {
  readonly maxBytes: number;
  /** From the moment the headers are in; `API_BODY_TIMEOUT`. */
  readonly timeoutMs: number;
}

/**
 * Stamped on a Node request whose body could not be read, for the app to answer (middleware
 * `answerBodyFailure`). A symbol property, as admission's stamp, so nothing is kept per request elsewhere.
 */
const BODY_FAILURE = Symbol("authsvc.bodyFailure");
/** `rawBody` is where @hono/node-server looks for a body already read (it then serves it as the body). */
type Stamped = { [BODY_FAILURE]?: BodyFailure; rawBody?: Buffer };

/** Whether `incoming` carries a body at all (RFC 9112 §6.3: a length or a transfer coding). */
const hasBody = (incoming: IncomingMessage) =>
  incoming.headers["transfer-encoding"] !== undefined ||
  (incoming.headers["content-length"] !== undefined && incoming.headers["content-length"] !== "0");

/**
 * Reads the whole body of `incoming` into memory (at most `maxBytes`, within `timeoutMs`) before the
 * request is admitted, so that a client trickling its body holds no admission slot, no deadline and
 * no database connection meanwhile — only its socket. The body is left where @hono/node-server reads
 * it (`rawBody`), so routes read it as before. Resolves undefined once read (or when there is none),
 * else with the failure, also stamped on the request (`bodyFailureOf`). GET and HEAD bodies are not
 * read: no route reads them.
 */
export function readBodyAhead(
  incoming: IncomingMessage,
  limits: BodyLimits,
): Promise<BodyFailure | undefined> {
  if (incoming.method === "GET" || incoming.method === "HEAD" || !hasBody(incoming)) {
    return Promise.resolve(undefined);
  }
  const stamped = incoming as IncomingMessage & Stamped;
  const declared = Number(incoming.headers["content-length"] ?? 0);
  if (declared > limits.maxBytes) {
    stamped[BODY_FAILURE] = "too_large";
    return Promise.resolve("too_large");
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (failure: BodyFailure | undefined) => {
      clearTimeout(timer);
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onEnded);
      incoming.off("close", onEnded);
      if (failure === undefined) stamped.rawBody = Buffer.concat(chunks, size);
      else stamped[BODY_FAILURE] = failure;
      resolve(failure);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) settle("too_large");
      else chunks.push(chunk);
    };
    const onEnd = () => settle(undefined);
    const onEnded = () => settle("ended_early");
    const timer = setTimeout(() => settle("timed_out"), limits.timeoutMs);
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onEnded);
    incoming.on("close", onEnded);
  });
}

/** The failure `readBodyAhead` stamped on the Node request under `c`; undefined when none. */
export const bodyFailureOf = (incoming: object | undefined): BodyFailure | undefined =>
  (incoming as Stamped | undefined)?.[BODY_FAILURE];

/** Whether the body of the Node request was read ahead (and so is already within its size limit). */
export const bodyReadAhead = (incoming: object | undefined): boolean =>
  (incoming as Stamped | undefined)?.rawBody !== undefined;
