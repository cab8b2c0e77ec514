import { describe, expect, it } from "vitest";
import { enrolTotp, IP, type SignedIn, signedIn, verifyTotp } from "../testing/mfa/signed-in.js";
import { challengeFactor } from "./challenge-factor.js";
import {
  deleteRecoveryCodes,
  generateRecoveryCodes,
  recoveryCodesStatus,
  regenerateRecoveryCodes,
} from "./recovery-codes.js";
import { unenrollFactor } from "./unenroll-factor.js";
import { verifyRecoveryCode } from "./verify-recovery-code.js";

/** A user with a verified TOTP factor and an aal2 session: `aal2` is that session's id. */
async function withTotp() {
  const setup = await signedIn();
  const app = await enrolTotp(setup);
  const verified = await verifyTotp(setup, app.factor.id, app.totp?.secret ?? "");
  if (!verified.ok) throw verified.error;
  return { ...setup, totpId: app.factor.id, aal2: setup.session.id };
}

async function generated(setup: SignedIn & { aal2: string }) {
  const set = await generateRecoveryCodes(setup.deps, { user: setup.user, sessionId: setup.aal2 });
  if (!set.ok) throw set.error;
  return set.value;
}

describe("recovery codes", () => {
  it("are never the only factor, and need an aal2 session", async () => {
    const setup = await signedIn();
    const alone = await generateRecoveryCodes(setup.deps, { user: setup.user, sessionId: setup.session.id });
    expect(alone).toMatchObject({ error: { code: "mfa_recovery_codes_sole_factor" } });
    const t = await withTotp();
    const aal1 = await t.signIn();
    const below = await generateRecoveryCodes(t.deps, { user: t.user, sessionId: aal1.session.id });
    expect(below).toMatchObject({ error: { code: "insufficient_aal" } });
  });

  it("are answered once, as many as configured, 16 base32 characters, and stored only as hashes", async () => {
    const t = await withTotp();
    const set = await generated(t);
    expect(set.codes).toHaveLength(10);
    for (const code of set.codes) expect(code).toMatch(/^[a-z2-7]{16}$/);
    expect(set.factor).toMatchObject({ factorType: "recovery_code", status: "verified" });
    expect(set.factor.friendlyName).toBe("Recovery codes");
    const stored = await t.deps.store.recoveryCodes.unused(set.factor.id);
    expect(stored.map((s) => s.codeHash)).toEqual(set.codes.map((c) => t.deps.tokens.hash(c)));
    expect(await recoveryCodesStatus(t.deps, { userId: t.user.id })).toMatchObject({
      value: { factorId: set.factor.id, total: 10, remaining: 10 },
    });
    const again = await generateRecoveryCodes(t.deps, { user: t.user, sessionId: t.aal2 });
    expect(again).toMatchObject({ error: { code: "mfa_verified_factor_exists" } });
  });

  it("raise an aal1 session to aal2 once per code, typed in any case with dashes and spaces", async () => {
    const t = await withTotp();
    const set = await generated(t);
    const fresh = await t.signIn();
    const code = set.codes[0] ?? "";
    const typed = `${code.slice(0, 4).toUpperCase()}-${code.slice(4, 8)} ${code.slice(8)}`;
    const raised = await verifyRecoveryCode(t.deps, {
      user: t.user,
      sessionId: fresh.session.id,
      code: typed,
    });
    if (!raised.ok) throw raised.error;
    const claims = await t.deps.signer.verify(raised.value.accessToken);
    expect(claims).toMatchObject({ aal: "aal2" });
    expect((claims as { amr: { method: string }[] }).amr[0]?.method).toBe("mfa/recovery_code");
    const other = await t.signIn();
    const reused = await verifyRecoveryCode(t.deps, { user: t.user, sessionId: other.session.id, code });
    expect(reused).toMatchObject({ error: { code: "mfa_verification_failed" } });
    expect(await recoveryCodesStatus(t.deps, { userId: t.user.id })).toMatchObject({
      value: { total: 10, remaining: 9 },
    });
  });

  it("count wrong codes with the factors' backoff: after five, 429 mfa_recovery_codes_locked, right code too", async () => {
    const t = await withTotp();
    const set = await generated(t);
    const fresh = await t.signIn();
    const attempt = (code: string) =>
      verifyRecoveryCode(t.deps, { user: t.user, sessionId: fresh.session.id, code });
    for (let i = 0; i < 5; i++) {
      expect(await attempt("aaaaaaaaaaaaaaaa")).toMatchObject({ error: { code: "mfa_verification_failed" } });
    }
    const held = await attempt(set.codes[1] ?? "");
    expect(held).toMatchObject({ error: { code: "mfa_recovery_codes_locked" } });
    expect(held.ok ? "" : held.error.message).toMatch(/try again after 15 seconds/);
    t.deps.clock.advance(15_000);
    expect((await attempt(set.codes[1] ?? "")).ok).toBe(true);
  });

  it("regenerate replaces the set (old codes stop working) and clears the wait; delete removes the factor", async () => {
    const t = await withTotp();
    const first = await generated(t);
    const fresh = await t.signIn();
    for (let i = 0; i < 6; i++) {
      await verifyRecoveryCode(t.deps, { user: t.user, sessionId: fresh.session.id, code: "wrong" });
    }
    const renewed = await regenerateRecoveryCodes(t.deps, { user: t.user, sessionId: t.aal2 });
    if (!renewed.ok) throw renewed.error;
    expect(renewed.value.factor.id).toBe(first.factor.id);
    const old = await verifyRecoveryCode(t.deps, {
      user: t.user,
      sessionId: fresh.session.id,
      code: first.codes[0] ?? "",
    });
    expect(old).toMatchObject({ error: { code: "mfa_verification_failed" } });
    const next = await verifyRecoveryCode(t.deps, {
      user: t.user,
      sessionId: fresh.session.id,
      code: renewed.value.codes[0] ?? "",
    });
    expect(next.ok).toBe(true);
    const aal1 = await t.signIn();
    const below = await deleteRecoveryCodes(t.deps, { user: t.user, sessionId: aal1.session.id });
    expect(below).toMatchObject({ error: { code: "insufficient_aal" } });
    expect(await deleteRecoveryCodes(t.deps, { user: t.user, sessionId: t.aal2 })).toEqual({
      ok: true,
      value: { id: first.factor.id },
    });
    expect(await recoveryCodesStatus(t.deps, { userId: t.user.id })).toMatchObject({
      error: { code: "mfa_factor_not_found" },
    });
  });

  it("are not challenged or unenrolled as a factor, and the last other factor cannot leave them alone", async () => {
    const t = await withTotp();
    const set = await generated(t);
    const challenged = await challengeFactor(t.deps, {
      user: t.user,
      factorId: set.factor.id,
      ipAddress: IP,
    });
    expect(challenged).toMatchObject({ error: { code: "validation_failed" } });
    const unenrolled = await unenrollFactor(t.deps, {
      user: t.user,
      sessionId: t.aal2,
      factorId: set.factor.id,
    });
    expect(unenrolled).toMatchObject({ error: { code: "validation_failed" } });
    const lastTotp = await unenrollFactor(t.deps, { user: t.user, sessionId: t.aal2, factorId: t.totpId });
    expect(lastTotp).toMatchObject({ error: { code: "mfa_recovery_codes_sole_factor" } });
  });

  it("answer the configured refusals when switched off", async () => {
    const t = await withTotp();
    const defaults = t.deps.settings.mfa;
    const off = {
      ...defaults,
      recoveryCodes: { ...defaults.recoveryCodes, enrollEnabled: false, verifyEnabled: false },
    };
    const deps = { ...t.deps, settings: { ...t.deps.settings, mfa: off } };
    expect(await generateRecoveryCodes(deps, { user: t.user, sessionId: t.aal2 })).toMatchObject({
      error: { code: "mfa_recovery_codes_enroll_not_enabled" },
    });
    expect(await verifyRecoveryCode(deps, { user: t.user, sessionId: t.aal2, code: "x" })).toMatchObject({
      error: { code: "mfa_recovery_codes_verify_not_enabled" },
    });
  });
});
