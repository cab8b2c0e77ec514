import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A mail a fake provider accepted, as the provider read it from the request. */
export interface ApiMail {
  /** The id the provider answered with. */
  readonly id: string;
  /** The sender as the request gave it (`Name <address>` or the address). */
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The request's headers (names lower-case), for what a provider reads besides the mail. */
  readonly headers: IncomingHttpHeaders;
}

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface ApiReply {
  readonly status: number;
  /** Sent as JSON unless a string (then `text/plain`); no body when undefined. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What the next request meets instead of the provider's own answer: one of the provider's failures
 * (`rateLimited` with this `Retry-After`, `serverError`, `unavailable` a 503), `hang` (no answer),
 * `disconnect` (the connection dropped before the request is read), or `lostAnswer` (the request is
 * handled, mail accepted, and the connection dropped before the answer).
 */
export type ApiFailure =
  | { readonly kind: "rateLimited"; readonly retryAfter?: string }
  | { readonly kind: "serverError" | "unavailable" | "hang" | "disconnect" | "lostAnswer" };

/** The provider-specific part of a fake: how it reads a request, and its words for each failure. */
export interface ApiBehaviour {
  handle(request: ApiRequest, accept: (mail: Omit<ApiMail, "id" | "headers">) => string): ApiReply;
  rateLimited(retryAfter: string | undefined): ApiReply;
  readonly serverError: ApiReply;
  readonly unavailable: ApiReply;
}

/** A loopback stand-in for one provider's HTTP mail API. */
export interface MailApiFake {
  /** Base URL to give the adapter (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Every mail accepted, in order. */
  readonly mails: ApiMail[];
  /** Every request received, accepted or not, in order. */
  readonly requests: ApiRequest[];
  /** Makes the next request meet `failure` (queued: one per call). */
  failNext(failure: ApiFailure): void;
  close(): Promise<void>;
}

/** A random id in the provider's style. */
export const randomId = (bytes = 12): string => randomBytes(bytes).toString("hex");

/** Starts a `node:http` server on 127.0.0.1 (ephemeral port) answering as `behaviour` says. */
export async function startMailApiFake(behaviour: ApiBehaviour): Promise<MailApiFake> {
  const mails: ApiMail[] = [];
  const requests: ApiRequest[] = [];
  const failures: ApiFailure[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: ApiRequest = {
        method: req.method ?? "GET",
        path: new URL(req.url ?? "/", "http://fake").pathname,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const failure = failures.shift();
      if (failure?.kind === "hang") return;
      if (failure?.kind === "disconnect") {
        req.socket.destroy();
        return;
      }
      const reply =
        failure?.kind === "rateLimited"
          ? behaviour.rateLimited(failure.retryAfter)
          : failure?.kind === "serverError"
            ? behaviour.serverError
            : failure?.kind === "unavailable"
              ? behaviour.unavailable
              : behaviour.handle(request, (mail) => {
                  const id = randomId();
                  mails.push({ ...mail, id, headers: req.headers });
                  return id;
                });
      if (failure?.kind === "lostAnswer") {
        req.socket.destroy();
        return;
      }
      const text =
        reply.body === undefined
          ? ""
          : typeof reply.body === "string"
            ? reply.body
            : JSON.stringify(reply.body);
      const type = typeof reply.body === "string" ? "text/plain; charset=utf-8" : "application/json";
      res.writeHead(reply.status, {
        ...(text !== "" ? { "content-type": type } : {}),
        "content-length": Buffer.byteLength(text),
        ...reply.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mails,
    requests,
    failNext: (failure) => {
      failures.push(failure);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON body of a request, or undefined when it is not JSON. */
export function jsonOf(request: ApiRequest): Record<string, unknown> | undefined {
  if (!(request.headers["content-type"] ?? "").startsWith("application/json")) return undefined;
  try {
    const parsed: unknown = JSON.parse(request.body);
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A string at `path` in a parsed JSON value ("" when absent). */
export function at(value: unknown, ...path: (string | number)[]): string {
  let here: unknown = value;
  for (const key of path) {
    if (here === null || typeof here !== "object") return "";
    here = (here as Record<string | number, unknown>)[key];
  }
  return typeof here === "string" ? here : "";
}
