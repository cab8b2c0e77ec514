import { describe, expect, it } from "vitest";
import { fakeLeakedPasswords } from "../testing/accounts/fake-leaked-passwords.js";
import { checkNewPassword, type PasswordSettings, passwordWeakness } from "./password-policy.js";

const settings = (enabled: boolean, failClosed = false): { password: PasswordSettings } => ({
  password: { minLength: 8, requiredCharacters: [], leaked: { enabled, failClosed } },
});

describe("checkNewPassword", () => {
  it("refuses a leaked password with reason pwned after the policy's reasons", async () => {
    const leakedPasswords = fakeLeakedPasswords(["hunter2", "password123"]);
    const deps = { settings: settings(true), leakedPasswords };
    const both = await checkNewPassword(deps, "hunter2");
    expect(both).toMatchObject({
      ok: false,
      error: {
        code: "weak_password",
        message:
          "Password should be at least 8 characters. Password is known to be weak and easy to guess, please choose a different one.",
        details: { weak_password: { reasons: ["length", "pwned"] } },
      },
    });
    expect(await checkNewPassword(deps, "password123")).toMatchObject({
      ok: false,
      error: { details: { weak_password: { reasons: ["pwned"] } } },
    });
    expect(await checkNewPassword(deps, "a fine long phrase")).toEqual({ ok: true, value: undefined });
  });

  it("never asks the corpus while the check is off", async () => {
    const leakedPasswords = fakeLeakedPasswords(["password123"]);
    expect(
      await checkNewPassword({ settings: settings(false), leakedPasswords }, "password123"),
    ).toMatchObject({
      ok: true,
    });
    expect(leakedPasswords.asked).toBe(0);
  });

  it("lets a password through when the corpus is unavailable, unless the check fails closed", async () => {
    const leakedPasswords = fakeLeakedPasswords(["password123"]);
    leakedPasswords.down = true;
    expect(
      await checkNewPassword({ settings: settings(true), leakedPasswords }, "password123"),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await checkNewPassword({ settings: settings(true, true), leakedPasswords }, "password123"),
    ).toMatchObject({
      ok: false,
      error: {
        code: "unexpected_failure",
        message: "Unable to perform password strength check with HaveIBeenPwned.org.",
      },
    });
    // The policy's refusal stands on its own even then.
    expect(
      await checkNewPassword({ settings: settings(true, true), leakedPasswords }, "short"),
    ).toMatchObject({
      ok: false,
      error: { code: "weak_password" },
    });
  });
});

describe("passwordWeakness", () => {
  it("tells why a password is weak, and nothing when the corpus cannot be asked", async () => {
    const leakedPasswords = fakeLeakedPasswords(["password123"]);
    const deps = { settings: settings(true, true), leakedPasswords };
    expect(await passwordWeakness(deps, "password123")).toEqual({
      reasons: ["pwned"],
      message: "Password is known to be weak and easy to guess, please choose a different one.",
    });
    expect(await passwordWeakness(deps, "a fine long phrase")).toBeNull();
    leakedPasswords.down = true;
    expect(await passwordWeakness(deps, "password123")).toBeNull();
    expect(await passwordWeakness(deps, "short")).toMatchObject({ reasons: ["length"] });
  });
});
