import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaptchaVerifier } from "../../guards/index.js";

/** A verifier to test, the one token its provider accepts, and how to release what it started. */
export interface CaptchaSubject {
  readonly verifier: CaptchaVerifier;
  readonly acceptedToken: string;
  close(): Promise<void>;
}

/** What every `CaptchaVerifier` must do, run against the fake and against each provider's adapter. */
export function describeCaptchaVerifier(name: string, start: () => Promise<CaptchaSubject>): void {
  describe(`CaptchaVerifier contract: ${name}`, () => {
    let subject: CaptchaSubject;
    beforeAll(async () => {
      subject = await start();
    });
    afterAll(() => subject?.close());

    it("accepts a token the provider issued", async () => {
      const verdict = await subject.verifier.verify({
        token: subject.acceptedToken,
        remoteIp: "203.0.113.7",
      });
      expect(verdict).toEqual({ success: true, errorCodes: [] });
    });

    it("refuses any other token with the provider's error codes", async () => {
      const verdict = await subject.verifier.verify({ token: "forged-token" });
      expect(verdict.success).toBe(false);
      expect(verdict.errorCodes).toContain("invalid-input-response");
    });
  });
}
