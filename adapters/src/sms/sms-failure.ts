import { failures } from "@authsvc/core";
import type { AuthError } from "@authsvc/core/kernel";

/** How long a gateway has to accept a message before the send counts as failed. */
export const SMS_TIMEOUT_MS = 10_000;

/**
 * The one error every gateway adapter rejects with. `secrets` are blanked out of the gateway's words
 * in case it echoes a credential back: the message reaches logs and, through the error body, clients.
 */
export function smsSendFailed(gateway: string, reason: string, secrets: readonly string[]): AuthError {
  let text = reason.trim() || "unknown error";
  for (const secret of secrets) {
    if (secret) text = text.split(secret).join("[redacted]");
  }
  return failures.smsSendFailed(`${gateway}: ${text}`);
}

/** The gateway's own words for a failure, with its code when it gives one, else the HTTP status. */
export function gatewayReason(
  message: string | undefined,
  code: string | undefined,
  httpStatus: number,
): string {
  if (!message) {
    const what = httpStatus >= 200 && httpStatus < 300 ? "unreadable answer, HTTP" : "HTTP";
    return `${what} ${httpStatus}${code ? ` (code ${code})` : ""}`;
  }
  return code ? `${message} (code ${code})` : message;
}
