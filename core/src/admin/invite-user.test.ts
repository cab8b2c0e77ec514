import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { fakeDeps } from "../testing/index.js";
import { breakMailer } from "../testing/messaging/message-helpers.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { inviteUser } from "./invite-user.js";

const actor = { role: "service_role" };
const ID = "11111111-1111-4111-8111-111111111111";

/** Deps holding carol@example.com, confirmed or not. */
function withCarol(confirmed: boolean) {
  const deps = fakeDeps();
  const now = deps.clock.now();
  const carol = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: now,
    email: "carol@example.com",
    emailConfirmedAt: confirmed ? now : null,
    invitedAt: now,
    userMetadata: { kept: true },
  });
  deps.store.tables.users.set(ID, carol);
  deps.clock.advance(60_000);
  return deps;
}

describe("inviteUser", () => {
  it("creates an invited user without password, with the data as metadata, and mails the invitation", async () => {
    const deps = fakeDeps();
    const now = deps.clock.now();
    const result = await inviteUser(deps, { actor, email: "Dave@Example.com", data: { team: "blue" } });
    if (!result.ok) throw result.error;
    const user = result.value;
    expect(user).toMatchObject({
      email: "dave@example.com",
      invitedAt: now,
      emailConfirmedAt: null,
      // The invitation is the confirmation mail of an invited user.
      confirmationSentAt: now,
      encryptedPassword: null,
      userMetadata: { team: "blue" },
      appMetadata: { provider: "email", providers: ["email"] },
      role: "authenticated",
      aud: "authenticated",
    });
    expect(user.userMetadata).toEqual({ team: "blue" });
    expect(user.identities).toEqual([
      expect.objectContaining({
        provider: "email",
        identityData: expect.objectContaining({ email: "dave@example.com" }),
      }),
    ]);
    expect(deps.store.tables.users.get(user.id)).toMatchObject({ invitedAt: now });
    expect(deps.store.tables.identities.size).toBe(1);
    expect(deps.mailer.sent).toEqual([
      {
        kind: "invite",
        to: "dave@example.com",
        email: "dave@example.com",
        confirmationUrl:
          "http://localhost:9999/verify?token=rt1&type=invite&redirect_to=http://localhost:3000",
        token: "000001",
      },
    ]);
    expect([...deps.store.tables.oneTimeTokens.values()]).toMatchObject([
      {
        userId: user.id,
        type: "confirmation_token",
        tokenHash: "h(rt1)",
        otpHash: "h(dave@example.com000001)",
      },
    ]);
    expect(deps.store.tables.audit).toEqual([
      {
        action: "user_invited",
        actorId: "",
        actorUsername: "service_role",
        traits: { user_id: user.id, user_email: "dave@example.com" },
        at: now,
      },
    ]);
  });

  it("gives empty metadata when no data is sent", async () => {
    const deps = fakeDeps();
    expect(await inviteUser(deps, { actor, email: "erin@example.com" })).toMatchObject({
      ok: true,
      value: { userMetadata: {} },
    });
  });

  it("invites an unconfirmed user again", async () => {
    const deps = withCarol(false);
    const result = await inviteUser(deps, { actor, email: "carol@example.com", data: { ignored: 1 } });
    expect(result).toMatchObject({
      ok: true,
      value: { id: ID, invitedAt: deps.clock.now(), userMetadata: { kept: true } },
    });
    expect(deps.store.tables.users.size).toBe(1);
    expect(deps.store.tables.users.get(ID)?.invitedAt).toEqual(deps.clock.now());
    expect(deps.mailer.sent).toMatchObject([{ kind: "invite", to: "carol@example.com", token: "000001" }]);
  });

  it("refuses a confirmed user's address, sending nothing", async () => {
    const deps = withCarol(true);
    expect(await inviteUser(deps, { actor, email: "CAROL@example.com" })).toMatchObject({
      ok: false,
      error: {
        code: "email_exists",
        message: "A user with this email address has already been registered",
      },
    });
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.store.tables.audit).toEqual([]);
  });

  it("refuses a malformed address", async () => {
    const deps = fakeDeps();
    expect(await inviteUser(deps, { actor, email: "xx:;x@x.x" })).toMatchObject({
      ok: false,
      error: {
        code: "validation_failed",
        message: "Unable to validate email address: invalid format",
      },
    });
    expect(deps.store.tables.users.size).toBe(0);
  });

  it("fails when the invitation cannot be mailed", async () => {
    const deps = fakeDeps();
    deps.mailer.send = async () => {
      throw new Error("smtp down");
    };
    await expect(inviteUser(deps, { actor, email: "frank@example.com" })).rejects.toThrow("smtp down");
  });

  it("answers email_send_failed when the invitation is refused, leaving no user or link; a retry works", async () => {
    const deps = fakeDeps();
    rollingBack(deps.store);
    const repair = breakMailer(deps.mailer);
    expect(await inviteUser(deps, { actor, email: "frank@example.com" })).toMatchObject({
      ok: false,
      error: { code: "email_send_failed" },
    });
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.store.tables.oneTimeTokens.size).toBe(0);
    // The mail is sent once the invitation has committed: the audit keeps the attempt.
    expect(deps.store.tables.audit.map((e) => e.action)).toEqual(["user_invited"]);
    repair();
    expect(await inviteUser(deps, { actor, email: "frank@example.com" })).toMatchObject({ ok: true });
    expect(deps.mailer.sent).toHaveLength(1);
  });

  it("links to an allowed redirect_to, else to SITE_URL", async () => {
    const deps = fakeDeps({ uriAllowList: ["https://app.example.com/*"] });
    await inviteUser(deps, { actor, email: "g@x.io", redirectTo: "https://app.example.com/join" });
    await inviteUser(deps, { actor, email: "h@x.io", redirectTo: "javascript:alert(1)" });
    expect(deps.mailer.sent.map((m) => m.confirmationUrl?.split("redirect_to=")[1])).toEqual([
      "https://app.example.com/join",
      "http://localhost:3000",
    ]);
  });
});
