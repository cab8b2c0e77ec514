import { describeCaptchaVerifier, FakeCaptcha } from "@authsvc/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaptchaFake, type CaptchaProviderName, startCaptchaFake } from "../testing/captcha-fake.js";
import { hcaptchaVerifier } from "./hcaptcha.js";
import { turnstileVerifier } from "./turnstile.js";

const SECRET = "0x0000000000000000000000000000000000000000";
const ADAPTERS = { hcaptcha: hcaptchaVerifier, turnstile: turnstileVerifier } as const;

describeCaptchaVerifier("FakeCaptcha", async () => ({
  verifier: new FakeCaptcha(new Set(["good"])),
  acceptedToken: "good",
  close: async () => {},
}));

for (const provider of ["hcaptcha", "turnstile"] as const satisfies readonly CaptchaProviderName[]) {
  const make = ADAPTERS[provider];
  let fake: CaptchaFake;
  describeCaptchaVerifier(`${provider} adapter against its loopback fake`, async () => {
    const started = await startCaptchaFake(provider, SECRET);
    return {
      verifier: make({ secret: SECRET, timeoutMs: 2000, url: started.url }),
      acceptedToken: started.issueToken(),
      close: () => started.close(),
    };
  });

  describe(`${provider} adapter`, () => {
    beforeAll(async () => {
      fake = await startCaptchaFake(provider, SECRET);
    });
    afterAll(() => fake.close());

    it("posts the secret, the token and the client's address as a form", async () => {
      const token = fake.issueToken();
      await make({ secret: SECRET, timeoutMs: 2000, url: fake.url }).verify({
        token,
        remoteIp: "203.0.113.9",
      });
      expect(fake.calls.at(-1)).toEqual({
        contentType: "application/x-www-form-urlencoded",
        response: token,
        remoteip: "203.0.113.9",
        secretMatched: true,
      });
    });

    it("reports the provider's refusal of a wrong secret, and of a token used twice", async () => {
      const token = fake.issueToken();
      const wrong = make({ secret: "not-the-secret", timeoutMs: 2000, url: fake.url });
      expect(await wrong.verify({ token })).toEqual({ success: false, errorCodes: ["invalid-input-secret"] });
      const right = make({ secret: SECRET, timeoutMs: 2000, url: fake.url });
      expect((await right.verify({ token })).success).toBe(true);
      const again = await right.verify({ token });
      expect(again.success).toBe(false);
      expect(again.errorCodes).toEqual([
        provider === "hcaptcha" ? "invalid-or-already-seen-response" : "timeout-or-duplicate",
      ]);
    });

    it("throws, naming neither secret nor token, when the provider does not answer in time", async () => {
      fake.hangNext();
      const token = fake.issueToken();
      const started = performance.now();
      const failure = await make({ secret: SECRET, timeoutMs: 200, url: fake.url })
        .verify({ token })
        .catch((e: Error) => e);
      expect(performance.now() - started).toBeLessThan(1500);
      expect(failure).toBeInstanceOf(Error);
      expect(String(failure)).toMatch(/no answer within 200 ms/);
      expect(String(failure)).not.toContain(SECRET);
      expect(String(failure)).not.toContain(token);
    });

    it("throws when the provider cannot be reached or answers something else", async () => {
      const closed = make({ secret: SECRET, timeoutMs: 2000, url: "http://127.0.0.1:1/siteverify" });
      await expect(closed.verify({ token: "t" })).rejects.toThrow(/verification failed/);
      const notFound = make({
        secret: SECRET,
        timeoutMs: 2000,
        url: fake.url.replace("/siteverify", "/other"),
      });
      await expect(notFound.verify({ token: "t" })).rejects.toThrow(/unexpected answer \(HTTP 404\)/);
    });
  });
}
