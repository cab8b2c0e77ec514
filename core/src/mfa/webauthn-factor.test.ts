import { describe, expect, it } from "vitest";
import { IP, signedIn } from "../testing/mfa/signed-in.js";
import { challengeFactor } from "./challenge-factor.js";
import { enrollFactor } from "./enroll-factor.js";
import { verifyFactor } from "./verify-factor.js";

/** A signed-in user with an unverified WebAuthn factor, on fake ports (see fakeWebAuthn). */
async function enrolled() {
  const setup = await signedIn();
  const { deps, user, session } = setup;
  const factor = await enrollFactor(deps, {
    user,
    sessionId: session.id,
    factorType: "webauthn",
    friendlyName: "key",
  });
  if (!factor.ok) throw factor.error;
  return { ...setup, factorId: factor.value.factor.id };
}

describe("WebAuthn factors", () => {
  it("challenge with creation options, then verify a registration: aal2, amr mfa/webauthn, the credential kept", async () => {
    const s = await enrolled();
    const challenged = await challengeFactor(s.deps, { user: s.user, factorId: s.factorId, ipAddress: IP });
    if (!challenged.ok) throw challenged.error;
    expect(challenged.value.webauthn?.type).toBe("create");
    const options = challenged.value.webauthn?.options as { challenge: string };
    const verified = await verifyFactor(s.deps, {
      user: s.user,
      sessionId: s.session.id,
      factorId: s.factorId,
      challengeId: challenged.value.id,
      code: "",
      ipAddress: IP,
      webauthn: {
        type: "create",
        credentialResponse: { challenge: options.challenge, credentialId: "key-1" },
      },
    });
    if (!verified.ok) throw verified.error;
    expect(verified.value.session).toMatchObject({
      aal: "aal2",
      amr: [{ method: "mfa/webauthn" }, { method: "password" }],
    });
    expect(s.deps.store.tables.factors.get(s.factorId)).toMatchObject({
      status: "verified",
      webauthnCredential: { credentialId: "key-1" },
    });

    const next = await challengeFactor(s.deps, { user: s.user, factorId: s.factorId, ipAddress: IP });
    expect(next.ok && next.value.webauthn).toMatchObject({
      type: "request",
      options: { allowCredentials: [{ id: "key-1" }] },
    });
  });

  it("refuses the wrong ceremony type, a wrong answer and malformed requests", async () => {
    const s = await enrolled();
    const verify = async (webauthn: { type: string; credentialResponse: unknown } | undefined) => {
      const challenged = await challengeFactor(s.deps, { user: s.user, factorId: s.factorId, ipAddress: IP });
      if (!challenged.ok) throw challenged.error;
      const options = challenged.value.webauthn?.options as { challenge: string };
      const answer = webauthn && {
        ...webauthn,
        credentialResponse:
          webauthn.credentialResponse === "right"
            ? { challenge: options.challenge, credentialId: "k" }
            : webauthn.credentialResponse,
      };
      return verifyFactor(s.deps, {
        user: s.user,
        sessionId: s.session.id,
        factorId: s.factorId,
        challengeId: challenged.value.id,
        code: "",
        ipAddress: IP,
        webauthn: answer,
      });
    };
    expect(await verify({ type: "request", credentialResponse: "right" })).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
    expect(
      await verify({ type: "create", credentialResponse: { challenge: "other", credentialId: "k" } }),
    ).toMatchObject({
      error: { code: "webauthn_verification_failed" },
    });
    expect(await verify({ type: "sign", credentialResponse: "right" })).toMatchObject({
      error: { code: "validation_failed" },
    });
    expect(await verify({ type: "create", credentialResponse: undefined })).toMatchObject({
      error: { code: "validation_failed" },
    });
    expect(await verify(undefined)).toMatchObject({ error: { code: "validation_failed" } });
  });

  it("takes the answer from the challenge's address only, like every factor's, and once", async () => {
    const s = await enrolled();
    const challenged = await challengeFactor(s.deps, { user: s.user, factorId: s.factorId, ipAddress: IP });
    if (!challenged.ok) throw challenged.error;
    const options = challenged.value.webauthn?.options as { challenge: string };
    const answer = {
      user: s.user,
      sessionId: s.session.id,
      factorId: s.factorId,
      challengeId: challenged.value.id,
      code: "",
      webauthn: { type: "create", credentialResponse: { challenge: options.challenge, credentialId: "k" } },
    };
    expect(await verifyFactor(s.deps, { ...answer, ipAddress: "198.51.100.9" })).toMatchObject({
      error: { code: "mfa_ip_address_mismatch" },
    });
    expect(s.deps.store.tables.factors.get(s.factorId)).toMatchObject({ status: "unverified" });
    expect(await verifyFactor(s.deps, { ...answer, ipAddress: IP })).toMatchObject({ ok: true });
    expect(await verifyFactor(s.deps, { ...answer, ipAddress: IP })).toMatchObject({
      error: { code: "mfa_ip_address_mismatch" },
    });
  });

  it("counts a verified factor's counter value once, even from two verifications at once", async () => {
    const s = await enrolled();
    const answer = async (type: "create" | "request", fields: Record<string, unknown>) => {
      const challenged = await challengeFactor(s.deps, { user: s.user, factorId: s.factorId, ipAddress: IP });
      if (!challenged.ok) throw challenged.error;
      const options = challenged.value.webauthn?.options as { challenge: string };
      const { challenge } = options;
      return {
        user: s.user,
        sessionId: s.session.id,
        factorId: s.factorId,
        challengeId: challenged.value.id,
        code: "",
        ipAddress: IP,
        webauthn: { type, credentialResponse: { challenge, credentialId: "key-1", ...fields } },
      };
    };
    expect(await verifyFactor(s.deps, await answer("create", {}))).toMatchObject({ ok: true });
    const signed = { publicKey: "key-of-key-1", signCount: 5 };
    const twice = [await answer("request", signed), await answer("request", signed)];
    const verified = await Promise.all(twice.map((a) => verifyFactor(s.deps, a)));
    expect(verified.filter((v) => v.ok)).toHaveLength(1);
    expect(verified.find((v) => !v.ok)).toMatchObject({ error: { code: "webauthn_verification_failed" } });
    expect(s.deps.store.tables.factors.get(s.factorId)?.webauthnCredential).toMatchObject({ signCount: 5 });
  });

  it("obeys the verify switch, on challenges too", async () => {
    const s = await enrolled();
    const webauthn = { ...s.deps.settings.webauthn, mfa: { enrollEnabled: true, verifyEnabled: false } };
    const off = { ...s.deps, settings: { ...s.deps.settings, webauthn } };
    expect(await challengeFactor(off, { user: s.user, factorId: s.factorId, ipAddress: IP })).toMatchObject({
      error: { code: "mfa_webauthn_verify_not_enabled" },
    });
    // A challenge made while it was on cannot be answered once it is off.
    const challenged = await challengeFactor(s.deps, { user: s.user, factorId: s.factorId, ipAddress: IP });
    if (!challenged.ok) throw challenged.error;
    const options = challenged.value.webauthn?.options as { challenge: string };
    const verified = await verifyFactor(off, {
      user: s.user,
      sessionId: s.session.id,
      factorId: s.factorId,
      challengeId: challenged.value.id,
      code: "",
      ipAddress: IP,
      webauthn: { type: "create", credentialResponse: { challenge: options.challenge, credentialId: "k" } },
    });
    expect(verified).toMatchObject({ error: { code: "mfa_webauthn_verify_not_enabled" } });
  });
});
