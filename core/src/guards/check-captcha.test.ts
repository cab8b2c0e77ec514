import { describe, expect, it } from "vitest";
import { FakeCaptcha } from "../testing/guards/fake-captcha.js";
import { checkCaptcha } from "./check-captcha.js";

describe("checkCaptcha", () => {
  const deps = () => ({ captcha: new FakeCaptcha(new Set(["good"])) });

  it.each([undefined, null, "", "   ", 42, { token: "good" }])(
    "refuses %j as no token, without asking",
    async (token) => {
      const d = deps();
      const result = await checkCaptcha(d, { token });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("captcha_failed");
      if (!result.ok)
        expect(result.error.message).toBe("captcha protection: request disallowed (no captcha_token found)");
      expect(d.captcha.challenges).toEqual([]);
    },
  );

  it("passes a trimmed token and the address on, and accepts what the provider accepts", async () => {
    const d = deps();
    expect(await checkCaptcha(d, { token: " good\n", remoteIp: "203.0.113.1" })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(d.captcha.challenges).toEqual([{ token: "good", remoteIp: "203.0.113.1" }]);
  });

  it("refuses what the provider refuses, naming its error codes", async () => {
    const result = await checkCaptcha(deps(), { token: "bad" });
    expect(result.ok ? undefined : result.error.message).toBe(
      "captcha protection: request disallowed (invalid-input-response)",
    );
  });

  it("lets a provider fault propagate: it is not the client's mistake", async () => {
    const d = deps();
    d.captcha.failNext = new Error("unreachable");
    await expect(checkCaptcha(d, { token: "good" })).rejects.toThrow("unreachable");
  });
});
