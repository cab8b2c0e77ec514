import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { failures } from "@authsvc/core";
import { hookAnswerFailure } from "@authsvc/core/hooks";
import type { AuthError, Result } from "@authsvc/core/kernel";
import { Webhook } from "standardwebhooks";
import type { request } from "undici";

/** The reference's limits (`hookshttp`): one deadline over all attempts, 3 attempts, 2 s apart. */
export const HTTP_HOOK_TIMEOUT_MS = 5_000;
export const HTTP_HOOK_ATTEMPTS = 3;
export const HTTP_HOOK_BACKOFF_MS = 2_000;
export const HTTP_HOOK_RESPONSE_LIMIT = 200 * 1024;

export interface HttpHookOptions {
  readonly url: string;
  /** `v1,whsec_<base64>` Standard Webhooks secrets: one `webhook-signature` entry each. */
  readonly secrets: readonly string[];
  readonly timeoutMs?: number;
  readonly attempts?: number;
  readonly backoffMs?: number;
  readonly responseLimit?: number;
}

/**
 * One HTTP hook: POSTs the JSON payload signed with Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, a fresh id per attempt) and resolves the parsed answer
 * (`{}` for a 204) or the reference's failure for it:
 * - no answer within the deadline: 422 `hook_timeout`; a connection failure is retried after the
 *   backoff, and after the last attempt is 422 `hook_timeout_after_retry`;
 * - 429 or 503 with `retry-after`: tried again at once (at most the attempts); without it a 500;
 * - 200/202 must be `application/json` (else 400 `hook_payload_invalid_content_type`) of at most
 *   200 KB (else 422 `hook_payload_over_size_limit`); an error object in it is the hook's refusal;
 * - 400, 401 and any other status: 500 saying which.
 */
export function httpHook(options: HttpHookOptions): (payload: string) => Promise<Result<unknown>> {
  const timeoutMs = options.timeoutMs ?? HTTP_HOOK_TIMEOUT_MS;
  const attempts = options.attempts ?? HTTP_HOOK_ATTEMPTS;
  const backoffMs = options.backoffMs ?? HTTP_HOOK_BACKOFF_MS;
  const limit = options.responseLimit ?? HTTP_HOOK_RESPONSE_LIMIT;
  const signers = options.secrets.map((secret) => new Webhook(secret.replace(/^v1,/, "")));
  const timedOut = () => failures.hookTimeout(timeoutMs / 1000);

  return async (payload) => {
    // undici is loaded by the first hook call, not at start: /health and most servers never need it.
    // Before the deadline starts, so loading it never eats into the hook's time.
    const { request } = await import("undici");
    const deadline = AbortSignal.timeout(timeoutMs);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const id = randomUUID();
      const at = new Date();
      const headers = {
        "content-type": "application/json",
        "accept-encoding": "identity",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signers.map((signer) => signer.sign(id, at, payload)).join(" "),
      };
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request(options.url, { method: "POST", headers, body: payload, signal: deadline });
      } catch {
        if (deadline.aborted) return fail(timedOut());
        if (attempt === attempts - 1) return fail(failures.hookTimeoutAfterRetry());
        try {
          await sleep(backoffMs, undefined, { signal: deadline });
        } catch {
          return fail(timedOut());
        }
        continue;
      }
      const { statusCode } = answer;
      if (statusCode === 200 || statusCode === 202) {
        try {
          return await readAnswer(answer, limit);
        } catch {
          return fail(deadline.aborted ? timedOut() : failures.hookFailed("Error reading the hook's answer"));
        }
      }
      await answer.body.dump();
      if (statusCode === 204) return { ok: true, value: {} };
      if (statusCode === 429 || statusCode === 503) {
        if (answer.headers["retry-after"] !== undefined) continue;
        return fail(failures.hookFailed("Service currently unavailable due to hook"));
      }
      if (statusCode === 400) return fail(failures.hookFailed("Invalid payload sent to hook"));
      if (statusCode === 401) return fail(failures.hookFailed("Hook requires authorization token"));
      return fail(failures.hookFailed(`Unexpected status code returned from hook: ${statusCode}`));
    }
    return fail(failures.hookFailed("Service currently unavailable due to hook"));
  };
}

async function readAnswer(
  answer: Awaited<ReturnType<typeof request>>,
  limit: number,
): Promise<Result<unknown>> {
  const contentType = answer.headers["content-type"];
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)
    ?.split(";")[0]
    ?.trim()
    .toLowerCase();
  if (type === undefined || type === "") {
    await answer.body.dump();
    return fail(failures.hookPayloadInvalidContentType("Invalid Content-Type: Missing Content-Type header"));
  }
  if (type !== "application/json") {
    await answer.body.dump();
    return fail(
      failures.hookPayloadInvalidContentType(
        `Invalid JSON response. Received content-type: ${String(contentType)}`,
      ),
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      answer.body.destroy();
      return fail(failures.hookPayloadOverSizeLimit(limit));
    }
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return fail(failures.hookFailed("Error unmarshaling JSON output."));
  }
  const refusal = hookAnswerFailure(parsed);
  return refusal ? fail(refusal) : { ok: true, value: parsed };
}

const fail = (error: AuthError): Result<never> => ({ ok: false, error });
