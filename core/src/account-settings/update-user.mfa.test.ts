import { describe, expect, it } from "vitest";
import { signInWithPassword } from "../sessions/index.js";
import { enrolTotp, signedIn, verifyTotp } from "../testing/mfa/signed-in.js";
import { updateUser } from "./update-user.js";

/** Alice with a verified TOTP factor (her first session raised to aal2), and a second, aal1 session. */
async function withMfa() {
  const setup = await signedIn();
  const enrolled = await enrolTotp(setup);
  const verified = await verifyTotp(setup, enrolled.factor.id, enrolled.totp?.secret ?? "");
  if (!verified.ok) throw verified.error;
  const aal1 = await setup.signIn();
  return { ...setup, aal1: aal1.session.id, aal2: setup.session.id };
}

const AAL2_NEEDED = {
  ok: false,
  error: {
    code: "insufficient_aal",
    message: "AAL2 session is required to update email or password when MFA is enabled.",
  },
};

describe("updateUser with MFA on", () => {
  it("refuses a new password, email or phone from an aal1 session, changing nothing", async () => {
    const { deps, user, aal1 } = await withMfa();
    const before = deps.store.tables.users.get(user.id);
    const update = (fields: { password?: string; email?: string; phone?: string }) =>
      updateUser(deps, { userId: user.id, sessionId: aal1, ...fields });
    expect(await update({ password: "mallorys-pw" })).toMatchObject(AAL2_NEEDED);
    expect(await update({ email: "mallory@example.com" })).toMatchObject(AAL2_NEEDED);
    expect(await update({ phone: "+1 555 000 2222" })).toMatchObject(AAL2_NEEDED);
    expect(deps.store.tables.users.get(user.id)).toEqual(before);
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.sms.sent).toEqual([]);
    expect((await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" })).ok).toBe(
      true,
    );
  });

  it("lets an aal1 session change its metadata, and an aal2 session its password", async () => {
    const { deps, user, aal1, aal2 } = await withMfa();
    expect((await updateUser(deps, { userId: user.id, sessionId: aal1, data: { theme: "dark" } })).ok).toBe(
      true,
    );
    expect((await updateUser(deps, { userId: user.id, sessionId: aal2, password: "new-secret-2" })).ok).toBe(
      true,
    );
    expect(
      (await signInWithPassword(deps, { email: "alice@example.com", password: "new-secret-2" })).ok,
    ).toBe(true);
  });
});
