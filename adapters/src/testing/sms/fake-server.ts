import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A text message a fake gateway accepted, with the sender and recipient exactly as the gateway received them. */
export interface ReceivedSms {
  /** The id the gateway answered with. */
  readonly id: string;
  readonly to: string;
  readonly from: string;
  readonly body: string;
  /** A WhatsApp content template's SID and variables, sent instead of a body (Twilio). */
  readonly contentSid?: string;
  readonly contentVariables?: string;
}

/**
 * How the next request fails: `server_error` is an HTTP 500, `rejected` the gateway refusing the
 * message in its own words (an unsubscribed recipient, no credit), `hang` never answers (for
 * timeouts), `disconnect` drops the connection without an answer.
 */
export type FailureKind = "server_error" | "rejected" | "hang" | "disconnect";

/** A loopback stand-in for one gateway's HTTP API. */
export interface SmsGatewayFake {
  /** Base URL to give the adapter (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Every message accepted, in order. */
  readonly messages: ReceivedSms[];
  /** Makes the next request fail this way (once), whatever it carries. */
  failNext(kind: FailureKind): void;
  close(): Promise<void>;
}

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface FakeReply {
  readonly status: number;
  /** Sent as JSON unless a string. */
  readonly body: unknown;
}

/** The gateway-specific part of a fake: its answer to a request, and its words for the two failure kinds that answer. */
export interface GatewayBehaviour {
  handle(request: FakeRequest, accept: (sms: ReceivedSms) => void): FakeReply;
  readonly serverError: FakeReply;
  readonly rejected: FakeReply;
}

/** Starts a `node:http` server on 127.0.0.1 with an ephemeral port that answers as `behaviour` says. */
export async function startFakeGateway(behaviour: GatewayBehaviour): Promise<SmsGatewayFake> {
  const messages: ReceivedSms[] = [];
  const failures: FailureKind[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const failure = failures.shift();
      if (failure === "hang") return;
      if (failure === "disconnect") {
        req.socket.destroy();
        return;
      }
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: new URL(req.url ?? "/", "http://fake").pathname,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const reply =
        failure === "server_error"
          ? behaviour.serverError
          : failure === "rejected"
            ? behaviour.rejected
            : behaviour.handle(request, (sms) => messages.push(sms));
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      const type = typeof reply.body === "string" ? "text/html; charset=utf-8" : "application/json";
      res.writeHead(reply.status, { "content-type": type, "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    failNext: (kind) => {
      failures.push(kind);
    },
    close: () =>
      new Promise((resolve) => {
        // Hung requests would otherwise keep the server open forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Parses an `application/x-www-form-urlencoded` body; null when the request is not a form. */
export function formOf(request: FakeRequest): URLSearchParams | null {
  const type = request.headers["content-type"] ?? "";
  return type.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(request.body) : null;
}

/** The user and password of a Basic `Authorization` header, or null. */
export function basicAuthOf(request: FakeRequest): { user: string; password: string } | null {
  const match = /^Basic (.+)$/i.exec(request.headers.authorization ?? "");
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A random lowercase hex string, for gateway message ids. */
export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString("hex")
    .slice(0, length);
}
