import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type CaptchaProviderName = "hcaptcha" | "turnstile";

/** A verification request as the fake received it. */
export interface SiteverifyCall {
  readonly contentType: string;
  readonly response: string | null;
  readonly remoteip: string | null;
  readonly secretMatched: boolean;
}

/** A loopback stand-in for one provider's `siteverify` endpoint. */
export interface CaptchaFake {
  /** The verification URL to configure (`SECURITY_CAPTCHA_URL`). */
  readonly url: string;
  /** Every verification request, in order. */
  readonly calls: SiteverifyCall[];
  /** A token as the provider's widget hands one to a browser: valid once. */
  issueToken(): string;
  /** The next request gets no answer at all (for timeouts). */
  hangNext(): void;
  close(): Promise<void>;
}

/** Each provider's word for a token it has already verified once. */
const REUSED: Record<CaptchaProviderName, string> = {
  hcaptcha: "invalid-or-already-seen-response",
  turnstile: "timeout-or-duplicate",
};

/**
 * Speaks the providers' real protocol: a form POST of `secret`, `response`, `remoteip` to
 * `/siteverify`, answered with `{success, "error-codes"}`; a wrong secret is
 * `invalid-input-secret`, an unknown token `invalid-input-response`, a missing one
 * `missing-input-response`, and a token is good for one verification only.
 */
export async function startCaptchaFake(provider: CaptchaProviderName, secret: string): Promise<CaptchaFake> {
  const issued = new Set<string>();
  const spent = new Set<string>();
  const calls: SiteverifyCall[] = [];
  let hang = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (hang) {
        hang = false;
        return;
      }
      const contentType = req.headers["content-type"] ?? "";
      const form = new URLSearchParams(
        contentType.startsWith("application/x-www-form-urlencoded") ? Buffer.concat(chunks).toString() : "",
      );
      const response = form.get("response");
      const secretMatched = form.get("secret") === secret;
      calls.push({ contentType, response, remoteip: form.get("remoteip"), secretMatched });
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || new URL(req.url ?? "/", "http://fake").pathname !== "/siteverify") {
        return answer(404, { error: "not found" });
      }
      const codes: string[] = [];
      if (!form.get("secret")) codes.push("missing-input-secret");
      else if (!secretMatched) codes.push("invalid-input-secret");
      if (!response) codes.push("missing-input-response");
      else if (spent.has(response)) codes.push(REUSED[provider]);
      else if (!issued.has(response)) codes.push("invalid-input-response");
      if (codes.length > 0) return answer(200, { success: false, "error-codes": codes });
      spent.add(response as string);
      const at = new Date().toISOString();
      answer(
        200,
        provider === "turnstile"
          ? {
              success: true,
              challenge_ts: at,
              hostname: "localhost",
              "error-codes": [],
              action: "",
              cdata: "",
            }
          : { success: true, challenge_ts: at, hostname: "localhost", credit: false },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    calls,
    issueToken() {
      const token = `${provider === "turnstile" ? "0." : "P1_"}${randomBytes(24).toString("base64url")}`;
      issued.add(token);
      return token;
    },
    hangNext() {
      hang = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
