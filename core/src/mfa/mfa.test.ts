import { describe, expect, it } from "vitest";
import { fakeHooks } from "../testing/hooks/fake-hooks.js";
import { defaultAuthSettings } from "../testing/index.js";
import { breakSms } from "../testing/messaging/message-helpers.js";
import { enrolTotp, IP, signedIn, verifyTotp } from "../testing/mfa/signed-in.js";
import { adminDeleteFactor, adminListFactors, adminUpdateFactor } from "./admin-factors.js";
import { challengeFactor } from "./challenge-factor.js";
import { enrollFactor } from "./enroll-factor.js";
import { unenrollFactor } from "./unenroll-factor.js";
import { verifyFactor } from "./verify-factor.js";

describe("enrollFactor", () => {
  it("answers a TOTP secret once and keeps it only sealed, unverified", async () => {
    const setup = await signedIn();
    const enrolled = await enrolTotp(setup);
    expect(enrolled.totp).toMatchObject({ secret: "SECRET1" });
    expect(enrolled.totp?.uri).toBe(
      "otpauth://totp/localhost:3000:alice@example.com?secret=SECRET1&issuer=localhost:3000",
    );
    expect(setup.deps.store.tables.factors.get(enrolled.factor.id)).toMatchObject({
      status: "unverified",
      friendlyName: "app",
      secret: `sealed(${enrolled.factor.id})SECRET1`,
    });
    expect(setup.deps.store.tables.audit.at(-1)).toMatchObject({ action: "factor_in_progress" });
  });

  it("refuses anonymous users, unknown types, disabled types, duplicate names and too many factors", async () => {
    const setup = await signedIn({}, { maxEnrolledFactors: 2 });
    const { deps, user, session } = setup;
    const enrol = (fields: { factorType: string; friendlyName?: string; phone?: string }, who = user) =>
      enrollFactor(deps, { user: who, sessionId: session.id, ...fields });
    expect(await enrol({ factorType: "totp" }, { ...user, isAnonymous: true })).toMatchObject({
      error: { code: "no_authorization" },
    });
    expect(await enrol({ factorType: "u2f" })).toMatchObject({ error: { code: "validation_failed" } });
    const webauthnOff = { ...deps.settings.webauthn, mfa: { enrollEnabled: false, verifyEnabled: true } };
    const webauthnDisabled = { ...deps, settings: { ...deps.settings, webauthn: webauthnOff } };
    expect(
      await enrollFactor(webauthnDisabled, { user, sessionId: session.id, factorType: "webauthn" }),
    ).toMatchObject({
      error: { code: "mfa_webauthn_enroll_not_enabled" },
    });
    expect(await enrol({ factorType: "phone" })).toMatchObject({ error: { failure: "factorPhoneRequired" } });
    expect(await enrol({ factorType: "phone", phone: "12ab" })).toMatchObject({
      error: { failure: "phoneInvalid" },
    });
    await enrolTotp(setup, "one");
    expect(await enrol({ factorType: "totp", friendlyName: "one" })).toMatchObject({
      error: {
        code: "mfa_factor_name_conflict",
        message: 'A factor with the friendly name "one" for this user already exists',
      },
    });
    await enrolTotp(setup, "two");
    expect(await enrol({ factorType: "totp", friendlyName: "three" })).toMatchObject({
      error: { code: "too_many_enrolled_mfa_factors" },
    });
    const off = await signedIn({}, { totp: { enrollEnabled: false, verifyEnabled: true } });
    expect(
      await enrollFactor(off.deps, { user: off.user, sessionId: off.session.id, factorType: "totp" }),
    ).toMatchObject({
      error: { code: "mfa_totp_enroll_not_enabled" },
    });
  });

  it("drops abandoned enrolments past MFA_FACTOR_EXPIRY_DURATION before counting", async () => {
    const setup = await signedIn({}, { maxEnrolledFactors: 1 });
    await enrolTotp(setup, "abandoned");
    setup.deps.clock.advance(301_000);
    await enrolTotp(setup, "new");
    expect([...setup.deps.store.tables.factors.values()].map((f) => f.friendlyName)).toEqual(["new"]);
  });

  it("needs aal2 to add a factor once one is verified", async () => {
    const setup = await signedIn();
    const first = await enrolTotp(setup);
    expect((await verifyTotp(setup, first.factor.id, first.totp?.secret ?? "")).ok).toBe(true);
    const later = await setup.signIn();
    const refused = await enrollFactor(setup.deps, {
      user: setup.user,
      sessionId: later.session.id,
      factorType: "totp",
    });
    expect(refused).toMatchObject({
      error: { code: "insufficient_aal", message: "AAL2 required to enroll a new factor" },
    });
    const allowed = await enrollFactor(setup.deps, {
      user: setup.user,
      sessionId: setup.session.id,
      factorType: "totp",
      friendlyName: "second",
    });
    expect(allowed.ok).toBe(true);
  });
});

describe("verifyFactor", () => {
  it("seals a secret sealed with an older key again with the current one", async () => {
    const setup = await signedIn();
    const enrolled = await enrolTotp(setup);
    const { factors } = setup.deps.store.tables;
    const id = enrolled.factor.id;
    factors.set(id, { ...enrolled.factor, secret: `old-sealed(${id})SECRET1` });
    expect((await verifyTotp(setup, id, "SECRET1")).ok).toBe(true);
    expect(factors.get(id)).toMatchObject({ status: "verified", secret: `sealed(${id})SECRET1` });
  });

  it("raises the session to aal2 with amr totp, issues a new refresh token, verifies the factor", async () => {
    const setup = await signedIn();
    const { deps, session } = setup;
    const other = await setup.signIn();
    const enrolled = await enrolTotp(setup);
    const spare = await enrolTotp(setup, "spare");
    const oldToken = await deps.store.sessions.activeToken(session.id);
    const verified = await verifyTotp(setup, enrolled.factor.id, enrolled.totp?.secret ?? "");
    if (!verified.ok) throw verified.error;
    const tokens = verified.value;
    expect(tokens.session).toMatchObject({ id: session.id, aal: "aal2" });
    expect(tokens.session.amr.map((m) => m.method)).toEqual(["totp", "password"]);
    expect(deps.store.tables.sessions.get(session.id)).toMatchObject({ aal: "aal2" });
    expect(await deps.signer.verify(tokens.accessToken)).toMatchObject({
      aal: "aal2",
      session_id: session.id,
    });
    expect(deps.store.tables.tokens.get(oldToken?.id ?? "")).toMatchObject({ revoked: true });
    expect(await deps.store.sessions.findTokenByHash(deps.tokens.hash(tokens.refreshToken))).toMatchObject({
      parentId: oldToken?.id,
      revoked: false,
    });
    expect(deps.store.tables.factors.get(enrolled.factor.id)).toMatchObject({ status: "verified" });
    // The user's other aal1 session ends; their other unverified TOTP factor goes.
    expect(deps.store.tables.sessions.has(other.session.id)).toBe(false);
    expect(deps.store.tables.factors.has(spare.factor.id)).toBe(false);
    expect(tokens.user.factors?.map((f) => f.id)).toEqual([enrolled.factor.id]);
  });

  it("asks the MFA verification attempt hook; its reject ends every session of the user", async () => {
    const setup = await signedIn();
    const { deps, session, user } = setup;
    const enrolled = await enrolTotp(setup);
    const hooks = fakeHooks({
      mfa_verification_attempt: (input) =>
        (input as { valid: boolean }).valid
          ? { ok: true, value: { decision: "continue" } }
          : { ok: true, value: { decision: "reject", message: "Too many tries" } },
    });
    const hooked = Object.assign(deps, { hooks: hooks.dispatcher });
    const secret = enrolled.totp?.secret ?? "";
    const challenge = await challengeFactor(hooked, { user, factorId: enrolled.factor.id, ipAddress: IP });
    if (!challenge.ok) throw challenge.error;
    const wrong = await verifyFactor(hooked, {
      user,
      sessionId: session.id,
      factorId: enrolled.factor.id,
      challengeId: challenge.value.id,
      code: "000000",
      ipAddress: IP,
    });
    expect(wrong).toMatchObject({ error: { code: "mfa_verification_rejected", message: "Too many tries" } });
    expect(hooks.calls.map((c) => c.input)).toEqual([
      { user_id: user.id, factor_id: enrolled.factor.id, factor_type: "totp", valid: false },
    ]);
    expect(deps.store.tables.sessions.has(session.id)).toBe(false);
    expect(deps.store.tables.factors.get(enrolled.factor.id)).toMatchObject({ status: "unverified" });

    const again = await setup.signIn();
    const right = await verifyTotp(
      { ...setup, deps: hooked, session: again.session },
      enrolled.factor.id,
      secret,
    );
    expect(right.ok).toBe(true);
    expect(hooks.calls.at(-1)?.input).toMatchObject({ valid: true });
  });

  it("refuses a wrong code, another IP, an expired or used challenge", async () => {
    const setup = await signedIn();
    const { deps, user, session, totp } = setup;
    const enrolled = await enrolTotp(setup);
    const factorId = enrolled.factor.id;
    const secret = enrolled.totp?.secret ?? "";
    const challenge = await challengeFactor(deps, { user, factorId, ipAddress: IP });
    if (!challenge.ok) throw challenge.error;
    const attempt = (code: string, ipAddress = IP, challengeId = challenge.value.id) =>
      verifyFactor(deps, { user, sessionId: session.id, factorId, challengeId, code, ipAddress });
    expect(await attempt("")).toMatchObject({ error: { message: "Code needs to be non-empty" } });
    expect(await attempt("123456")).toMatchObject({
      error: { code: "mfa_verification_failed", message: "Invalid TOTP code entered" },
    });
    expect(await attempt(totp.codeAt(secret, deps.clock.now()), "198.51.100.1")).toMatchObject({
      error: { code: "mfa_ip_address_mismatch" },
    });
    expect(await attempt("123456", IP, "22222222-2222-4222-8222-222222222222")).toMatchObject({
      error: { failure: "challengeNotFound" },
    });
    // One step either side is accepted.
    deps.clock.advance(30_000);
    expect((await attempt(totp.codeAt(secret, new Date(deps.clock.now().getTime() - 30_000)))).ok).toBe(true);
    expect(await attempt(totp.codeAt(secret, deps.clock.now()))).toMatchObject({
      error: { code: "mfa_ip_address_mismatch" },
    });
    const late = await challengeFactor(deps, { user, factorId, ipAddress: IP });
    if (!late.ok) throw late.error;
    deps.clock.advance(301_000);
    expect(await attempt(totp.codeAt(secret, deps.clock.now()), IP, late.value.id)).toMatchObject({
      error: { code: "mfa_challenge_expired" },
    });
    expect(deps.store.tables.challenges.has(late.value.id)).toBe(false);
  });

  it("texts a phone factor's code after the commit, throttled, and verifies it", async () => {
    const defaults = defaultAuthSettings().mfa;
    const setup = await signedIn({}, { phone: { ...defaults.phone, verifyEnabled: false } });
    const { deps, user, session } = setup;
    const enrolled = await enrollFactor(deps, {
      user,
      sessionId: session.id,
      factorType: "phone",
      phone: "+1 555 123 4567",
    });
    if (!enrolled.ok) throw enrolled.error;
    expect(enrolled.value).toMatchObject({ phone: "+1 555 123 4567", factor: { phone: "15551234567" } });
    const factorId = enrolled.value.factor.id;
    expect(await challengeFactor(deps, { user, factorId, ipAddress: IP })).toMatchObject({
      error: { code: "mfa_phone_verify_not_enabled" },
    });
    const on = { ...deps.settings.mfa.phone, verifyEnabled: true };
    const phoneDeps = { ...deps, settings: { ...deps.settings, mfa: { ...deps.settings.mfa, phone: on } } };
    expect(
      await challengeFactor(phoneDeps, { user, factorId, ipAddress: IP, channel: "whatsapp" }),
    ).toMatchObject({
      error: { code: "validation_failed" },
    });
    const repair = breakSms(deps.sms);
    expect(await challengeFactor(phoneDeps, { user, factorId, ipAddress: IP })).toMatchObject({
      error: { code: "sms_send_failed" },
    });
    repair();
    expect(deps.store.tables.challenges.size).toBe(0);
    const challenge = await challengeFactor(phoneDeps, { user, factorId, ipAddress: IP });
    if (!challenge.ok) throw challenge.error;
    const text = deps.sms.sent.at(-1);
    expect(text).toMatchObject({ to: "15551234567" });
    const code = /(\d{6})/.exec(text?.body ?? "")?.[1] ?? "";
    expect(text?.body).toBe(`Your code is ${code}`);
    expect(deps.store.tables.challenges.get(challenge.value.id)?.otpCode).toBe(
      `sealed(${challenge.value.id})${code}`,
    );
    expect(await challengeFactor(phoneDeps, { user, factorId, ipAddress: IP })).toMatchObject({
      error: { code: "over_sms_send_rate_limit" },
    });
    const verify = (c: string) =>
      verifyFactor(phoneDeps, {
        user,
        sessionId: session.id,
        factorId,
        challengeId: challenge.value.id,
        code: c,
        ipAddress: IP,
      });
    expect(await verify("999999")).toMatchObject({ error: { message: "Invalid MFA Phone code entered" } });
    const verified = await verify(code);
    if (!verified.ok) throw verified.error;
    expect(verified.value.session.amr[0]?.method).toBe("mfa/phone");
  });
});

describe("unenrollFactor and the admin's factor endpoints", () => {
  it("needs aal2 for a verified factor, and lowers the sessions it raised", async () => {
    const setup = await signedIn();
    const { deps, user, session } = setup;
    const enrolled = await enrolTotp(setup);
    const factorId = enrolled.factor.id;
    await verifyTotp(setup, factorId, enrolled.totp?.secret ?? "");
    const later = await setup.signIn();
    expect(await unenrollFactor(deps, { user, sessionId: later.session.id, factorId })).toMatchObject({
      error: { code: "insufficient_aal", message: "AAL2 required to unenroll verified factor" },
    });
    expect(await unenrollFactor(deps, { user, sessionId: session.id, factorId })).toEqual({
      ok: true,
      value: { id: factorId },
    });
    expect(deps.store.tables.sessions.get(session.id)).toMatchObject({ aal: "aal1" });
    expect(deps.store.tables.sessions.get(session.id)?.amr.map((m) => m.method)).toEqual(["password"]);
    expect(await unenrollFactor(deps, { user, sessionId: session.id, factorId })).toMatchObject({
      error: { code: "mfa_factor_not_found" },
    });
  });

  it("lists, renames, re-numbers and deletes factors of a user", async () => {
    const setup = await signedIn();
    const { deps, user, session } = setup;
    const actor = { role: "service_role" };
    const totp = await enrolTotp(setup);
    const phone = await enrollFactor(deps, {
      user,
      sessionId: session.id,
      factorType: "phone",
      phone: "15550001111",
    });
    if (!phone.ok) throw phone.error;
    expect((await adminListFactors(deps, { userId: user.id })).ok).toBe(true);
    expect(await adminListFactors(deps, { userId: "33333333-3333-4333-8333-333333333333" })).toMatchObject({
      error: { code: "user_not_found" },
    });
    const base = { actor, userId: user.id };
    expect(
      await adminUpdateFactor(deps, { ...base, factorId: totp.factor.id, friendlyName: "renamed" }),
    ).toMatchObject({
      value: { friendlyName: "renamed" },
    });
    expect(
      await adminUpdateFactor(deps, { ...base, factorId: phone.value.factor.id, phone: "+15550002222" }),
    ).toMatchObject({
      value: { phone: "15550002222" },
    });
    expect(
      await adminUpdateFactor(deps, { ...base, factorId: phone.value.factor.id, friendlyName: "renamed" }),
    ).toMatchObject({
      error: { code: "mfa_factor_name_conflict" },
    });
    expect(await adminDeleteFactor(deps, { ...base, factorId: totp.factor.id })).toMatchObject({
      value: { id: totp.factor.id },
    });
    expect(await adminDeleteFactor(deps, { ...base, factorId: "nope" })).toMatchObject({
      error: { failure: "factorIdNotUuid" },
    });
    expect(deps.store.tables.audit.map((e) => e.action).slice(-3)).toEqual([
      "factor_updated",
      "factor_updated",
      "factor_deleted",
    ]);
  });
});
