import { describe, expect, it } from "vitest";
import { checkNewPassword, type PasswordPolicy } from "./password-policy.js";

const policy = (minLength: number, requiredCharacters: string[] = []) => ({ minLength, requiredCharacters });
/** The policy alone: the leaked-password check off. */
const checkPassword = (password: PasswordPolicy, candidate: string) =>
  checkNewPassword(
    {
      settings: { password: { ...password, leaked: { enabled: false, failClosed: false } } },
      leakedPasswords: { check: async () => "clean" },
    },
    candidate,
  );
const SETS = ["abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"];

describe("checkNewPassword: the policy", () => {
  it("accepts a password that meets the policy", async () => {
    expect(await checkPassword(policy(6), "secret")).toEqual({ ok: true, value: undefined });
    expect(await checkPassword(policy(8, SETS), "Secret12")).toMatchObject({ ok: true });
  });

  it("refuses a short password with reason length", async () => {
    const result = await checkPassword(policy(6), "12345");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: "weak_password",
      message: "Password should be at least 6 characters.",
      details: { weak_password: { reasons: ["length"] } },
    });
  });

  it("refuses a password missing a required set with reason characters", async () => {
    const result = await checkPassword(policy(6, SETS), "secret12");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe(
      `Password should contain at least one character of each: ${SETS.join(", ")}.`,
    );
    expect(result.error.details).toEqual({ weak_password: { reasons: ["characters"] } });
  });

  it("reports both reasons in one message", async () => {
    const result = await checkPassword(policy(10, SETS), "short");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe(
      `Password should be at least 10 characters. Password should contain at least one character of each: ${SETS.join(", ")}.`,
    );
    expect(result.error.details).toEqual({ weak_password: { reasons: ["length", "characters"] } });
  });

  it("ignores empty character sets", async () => {
    expect(await checkPassword(policy(6, ["", "0123456789"]), "secret1")).toMatchObject({ ok: true });
  });

  it("counts characters, not UTF-16 units or bytes", async () => {
    // 5 emoji are 10 UTF-16 units and 20 bytes, but 5 characters.
    expect(await checkPassword(policy(6), "😀😀😀😀😀")).toMatchObject({ ok: false });
    expect(await checkPassword(policy(6), "😀😀😀😀😀😀")).toMatchObject({ ok: true });
    expect(await checkPassword(policy(6, ["😀"]), "secret😀")).toMatchObject({ ok: true });
  });

  it("accepts 1024 characters and refuses 1025", async () => {
    expect(await checkPassword(policy(6), "€".repeat(1024))).toMatchObject({ ok: true });
    const result = await checkPassword(policy(6), "€".repeat(1025));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: "validation_failed",
      message: "Password cannot be longer than 1024 characters",
    });
  });
});
