import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import {
  type ApiReply,
  type ApiRequest,
  at,
  jsonOf,
  type MailApiFake,
  startMailApiFake,
} from "./fake-api.js";
import { REFUSED_RECIPIENT } from "./providers.js";

export interface SesFakeCredentials {
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

const sesError = (status: number, type: string, message: string): ApiReply => ({
  status,
  body: { message },
  headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazonaws.sesv2/` },
});

const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();
const sha256 = (data: string) => createHash("sha256").update(data).digest("hex");

const headerValue = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ");
};

/**
 * Checks the request's Signature Version 4 as AWS does, from what arrived: the headers the
 * `Authorization` header says were signed, the body's hash, the scope's day, region and service.
 * Answers why it does not verify, or null.
 */
function signatureProblem(request: ApiRequest, credentials: SesFakeCredentials): ApiReply | null {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      headerValue(request.headers, "authorization"),
    );
  if (!match)
    return sesError(403, "IncompleteSignatureException", "Authorization header requires a signature.");
  const [, keyId, day, region, service, signedHeaders = "", signature = ""] = match;
  if (keyId !== credentials.accessKeyId) {
    return sesError(
      403,
      "UnrecognizedClientException",
      "The security token included in the request is invalid.",
    );
  }
  const date = headerValue(request.headers, "x-amz-date");
  const names = signedHeaders.split(";");
  if (
    region !== credentials.region ||
    service !== "ses" ||
    !date.startsWith(day ?? "-") ||
    !names.includes("host")
  ) {
    return sesError(
      403,
      "InvalidSignatureException",
      "Credential should be scoped to a valid region and service.",
    );
  }
  const canonical = [
    request.method,
    request.path,
    "",
    names.map((name) => `${name}:${headerValue(request.headers, name)}\n`).join(""),
    signedHeaders,
    sha256(request.body),
  ].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", date, scope, sha256(canonical)].join("\n");
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day ?? ""), region), service),
    "aws4_request",
  );
  const expected = createHmac("sha256", key).update(toSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) {
    return sesError(
      403,
      "SignatureDoesNotMatch",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
    );
  }
  return null;
}

/**
 * Amazon SES v2's `POST /v2/email/outbound-emails` (SendEmail, simple content), each request's
 * Signature Version 4 verified; 200 `{MessageId}`, errors `{message}` typed by `x-amzn-ErrorType`.
 */
export function startSesFake(credentials: SesFakeCredentials): Promise<MailApiFake> {
  return startMailApiFake({
    serverError: sesError(
      500,
      "InternalFailure",
      "The request processing has failed because of an unknown error.",
    ),
    unavailable: sesError(503, "ServiceUnavailable", "Service is unable to handle request."),
    rateLimited: (retryAfter) => {
      const reply = sesError(429, "TooManyRequestsException", "Too Many Requests");
      return retryAfter === undefined
        ? reply
        : { ...reply, headers: { ...reply.headers, "retry-after": retryAfter } };
    },
    handle(request, accept) {
      const problem = signatureProblem(request, credentials);
      if (problem) return problem;
      if (request.method !== "POST" || request.path !== "/v2/email/outbound-emails") {
        return sesError(404, "UnknownOperationException", "Unknown operation");
      }
      const body = jsonOf(request);
      const to = at(body, "Destination", "ToAddresses", 0);
      if (!to.includes("@")) return sesError(400, "BadRequestException", "Missing final '@domain'");
      if (to === REFUSED_RECIPIENT) {
        return sesError(
          400,
          "MessageRejected",
          `Email address is not verified. The following identities failed the check in region ${credentials.region.toUpperCase()}: ${to}`,
        );
      }
      const simple = ["Content", "Simple"] as const;
      const id = accept({
        from: at(body, "FromEmailAddress"),
        to,
        subject: at(body, ...simple, "Subject", "Data"),
        text: at(body, ...simple, "Body", "Text", "Data"),
        html: at(body, ...simple, "Body", "Html", "Data"),
      });
      return { status: 200, body: { MessageId: id } };
    },
  });
}
