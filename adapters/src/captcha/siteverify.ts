import type { CaptchaChallenge, CaptchaVerdict, CaptchaVerifier } from "@authsvc/core/guards";
import { postToGateway } from "../sms/gateway-request.js";

/** How to reach one provider's `siteverify` endpoint. */
export interface SiteverifyOptions {
  /** The site's secret key, sent as `secret`. */
  readonly secret: string;
  /** Longest wait for the whole answer (`SECURITY_CAPTCHA_TIMEOUT`). */
  readonly timeoutMs: number;
  /** The verification URL; the provider's own unless overridden (`SECURITY_CAPTCHA_URL`). */
  readonly url?: string | undefined;
}

/**
 * hCaptcha and Turnstile share one verification protocol: a form POST of `secret`, `response` and
 * `remoteip`, answered with JSON `{"success": bool, "error-codes": [...]}`. Anything else (a
 * transport failure, a timeout, a non-2xx status, a body without a boolean `success`) is thrown as
 * a fault naming the provider, never the secret or the token.
 */
export function siteverify(
  provider: string,
  defaultUrl: string,
  options: SiteverifyOptions,
): CaptchaVerifier {
  if (!options.secret) throw new Error(`${provider}: a secret is required`);
  const url = options.url ?? defaultUrl;
  return {
    async verify(challenge: CaptchaChallenge): Promise<CaptchaVerdict> {
      const form = new URLSearchParams({ secret: options.secret, response: challenge.token });
      if (challenge.remoteIp) form.set("remoteip", challenge.remoteIp);
      let answer: Awaited<ReturnType<typeof postToGateway>>;
      try {
        answer = await postToGateway({
          url,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form.toString(),
          timeoutMs: options.timeoutMs,
        });
      } catch (error) {
        throw new Error(`${provider} verification failed: ${(error as Error).message}`);
      }
      const success = (answer.json as { success?: unknown } | undefined)?.success;
      if (answer.status < 200 || answer.status > 299 || typeof success !== "boolean") {
        throw new Error(`${provider} verification failed: unexpected answer (HTTP ${answer.status})`);
      }
      const codes = (answer.json as { "error-codes"?: unknown })["error-codes"];
      const errorCodes = Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
      return { success, errorCodes: success ? [] : errorCodes };
    },
  };
}
