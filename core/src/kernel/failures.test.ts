import { describe, expect, it } from "vitest";
import { failures } from "../failures.js";
import { AuthError } from "./errors.js";
import { assertNamedOnce, failureConstructors, kernelFailures } from "./failures.js";

describe("failure catalogues", () => {
  it("build one named constructor per failure, fixed or from its arguments", () => {
    const built = failureConstructors({
      fixed: ["validation_failed", "A fixed message"],
      formed: ["over_request_rate_limit", (seconds: number) => `Wait ${seconds} seconds`],
    } as const);
    expect(built.fixed()).toMatchObject({
      code: "validation_failed",
      message: "A fixed message",
      failure: "fixed",
    });
    expect(built.formed(40)).toBeInstanceOf(AuthError);
    expect(built.formed(40).message).toBe("Wait 40 seconds");
  });

  it("refuses a name two catalogues define, and names it", () => {
    const mine = { userBanned: ["user_banned", "Banned"] } as const;
    expect(() => assertNamedOnce([kernelFailures, mine])).not.toThrow();
    expect(() => assertNamedOnce([kernelFailures, mine, mine])).toThrow(/defined twice: userBanned/);
  });

  it("compose into the one catalogue call sites use, with the kernel's and each slice's", () => {
    expect(failures.unexpectedFailure().code).toBe("unexpected_failure");
    expect(failures.totpCodeInvalid().code).toBe("mfa_verification_failed");
    expect(failures.emailTooSoon(40).message).toBe(
      "For security purposes, you can only request this after 40 seconds.",
    );
  });
});
