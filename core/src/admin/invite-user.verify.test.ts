import { describe, expect, it } from "vitest";
import { blankUser, type User } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { linkTokenOf } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { verifyOtp } from "../verification/index.js";
import { inviteUser } from "./invite-user.js";

/** Accepting an invitation through `verifyOtp` (type invite). */
const ID = "11111111-1111-4111-8111-111111111111";

function withUser(fields: Partial<User>) {
  const deps = fakeDeps();
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    ...fields,
  });
  deps.store.tables.users.set(ID, user);
  return deps;
}
const sessionOf = (result: Awaited<ReturnType<typeof verifyOtp>>) => {
  if (!result.ok) throw result.error;
  if (result.value.kind !== "session") throw new Error("expected a session");
  return result.value;
};

describe("verifyOtp invite", () => {
  async function invited() {
    const deps = fakeDeps();
    rollingBack(deps.store);
    await inviteUser(deps, { actor: { role: "service_role" }, email: "inv@example.com" });
    return { deps, link: linkTokenOf(deps.mailer.sent[0]) };
  }

  it("sets the password given on acceptance and records invite_accepted", async () => {
    const { deps, link } = await invited();
    const done = sessionOf(
      await verifyOtp(deps, { type: "invite", tokenHash: link, password: "new-secret" }),
    );
    expect(done.tokens.user).toMatchObject({
      emailConfirmedAt: deps.clock.now(),
      encryptedPassword: "plain$new-secret",
    });
    expect(deps.store.tables.audit.map((e) => e.action)).toEqual([
      "user_invited",
      "invite_accepted",
      "login",
    ]);
  });

  it("refuses a weak password with 422 without spending the invitation", async () => {
    const { deps, link } = await invited();
    expect(await verifyOtp(deps, { type: "invite", tokenHash: link, password: "123" })).toMatchObject({
      ok: false,
      error: { code: "weak_password" },
    });
    expect(
      sessionOf(await verifyOtp(deps, { type: "invite", tokenHash: link })).tokens.user.encryptedPassword,
    ).toBe(null);
  });

  it("replaces a password set before the invitation with the invitee's own (pre-account takeover)", async () => {
    const deps = withUser({
      email: "inv@example.com",
      encryptedPassword: "plain$attackers",
      invitedAt: new Date(0),
    });
    await inviteUser(deps, { actor: { role: "service_role" }, email: "inv@example.com" });
    const link = linkTokenOf(deps.mailer.sent[0]);
    const done = sessionOf(await verifyOtp(deps, { type: "invite", tokenHash: link, password: "other-pw" }));
    expect(done.tokens.user.encryptedPassword).toBe("plain$other-pw");
  });

  it("clears a password set before the invitation when the invitee sets none", async () => {
    const deps = withUser({
      email: "inv@example.com",
      encryptedPassword: "plain$attackers",
      invitedAt: new Date(0),
    });
    await inviteUser(deps, { actor: { role: "service_role" }, email: "inv@example.com" });
    const link = linkTokenOf(deps.mailer.sent[0]);
    const done = sessionOf(await verifyOtp(deps, { type: "invite", tokenHash: link }));
    expect(done.tokens.user.encryptedPassword).toBeNull();
  });
});
