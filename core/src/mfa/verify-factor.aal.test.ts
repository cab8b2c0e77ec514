import { describe, expect, it } from "vitest";
import { smsCodeOf } from "../testing/messaging/message-helpers.js";
import { enrolTotp, IP, signedIn, verifyTotp } from "../testing/mfa/signed-in.js";
import { challengeFactor } from "./challenge-factor.js";
import { enrollFactor } from "./enroll-factor.js";
import { verifyFactor } from "./verify-factor.js";

describe("verifyFactor: a factor left unverified next to a verified one", () => {
  it("needs aal2 to verify it: an aal1 session cannot raise itself with a factor planted before", async () => {
    const setup = await signedIn();
    const { deps, user } = setup;
    // Someone with the password enrols a phone factor of their own while the user has none verified.
    const intruder = await setup.signIn();
    const planted = await enrollFactor(deps, {
      user,
      sessionId: intruder.session.id,
      factorType: "phone",
      phone: "+1 555 000 1111",
    });
    if (!planted.ok) throw planted.error;
    // The user then sets up TOTP; its verification drops only unverified TOTP factors.
    const app = await enrolTotp(setup);
    expect((await verifyTotp(setup, app.factor.id, app.totp?.secret ?? "")).ok).toBe(true);
    expect(deps.store.tables.factors.get(planted.value.factor.id)).toMatchObject({ status: "unverified" });

    const again = await setup.signIn();
    const factorId = planted.value.factor.id;
    const challenge = await challengeFactor(deps, { user, factorId, ipAddress: IP });
    if (!challenge.ok) throw challenge.error;
    const answered = await verifyFactor(deps, {
      user,
      sessionId: again.session.id,
      factorId,
      challengeId: challenge.value.id,
      code: smsCodeOf(deps.sms.sent.at(-1)),
      ipAddress: IP,
    });
    expect(answered).toMatchObject({
      error: { code: "insufficient_aal", message: "AAL2 required to verify a new factor" },
    });
    expect(deps.store.tables.sessions.get(again.session.id)).toMatchObject({ aal: "aal1" });
    expect(deps.store.tables.factors.get(factorId)).toMatchObject({ status: "unverified" });
  });

  it("lets an aal2 session verify a second factor", async () => {
    const setup = await signedIn();
    const first = await enrolTotp(setup);
    expect((await verifyTotp(setup, first.factor.id, first.totp?.secret ?? "")).ok).toBe(true);
    const second = await enrolTotp(setup, "second");
    setup.deps.clock.advance(30_000);
    expect((await verifyTotp(setup, second.factor.id, second.totp?.secret ?? "")).ok).toBe(true);
    expect(setup.deps.store.tables.factors.get(second.factor.id)).toMatchObject({ status: "verified" });
  });
});
