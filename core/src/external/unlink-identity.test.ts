import { describe, expect, it } from "vitest";
import { anIdentity, aUser, fakeDeps } from "../testing/index.js";
import { unlinkIdentity } from "./unlink-identity.js";

const CONFIRMED = new Date("2025-01-01T00:00:00Z");

/** A confirmed email user with a pending email change, recovery and confirmation, plus a keycloak identity. */
function setup(keycloakEmail: { email: string; email_verified: boolean }, autoconfirm = false) {
  const deps = fakeDeps({
    manualLinkingEnabled: true,
    signup: { ...fakeDeps().settings.signup, mailerAutoconfirm: autoconfirm },
  });
  const { tables } = deps.store;
  const user = aUser({
    email: "ann@example.com",
    emailConfirmedAt: CONFIRMED,
    recoverySentAt: CONFIRMED,
    emailChange: "ann.new@example.com",
    emailChangeSentAt: CONFIRMED,
    userMetadata: { email_verified: true },
  });
  tables.users.set(user.id, user);
  const email = anIdentity(user, {
    identityData: { sub: user.id, email: user.email, email_verified: true },
  });
  const keycloak = anIdentity(user, {
    provider: "keycloak",
    providerId: "kc-1",
    identityData: keycloakEmail,
  });
  tables.identities.set(email.id, email);
  tables.identities.set(keycloak.id, keycloak);
  for (const type of ["recovery_token", "email_change_token_new"] as const) {
    const id = `${type}-1`;
    tables.oneTimeTokens.set(id, {
      id,
      userId: user.id,
      type,
      tokenHash: `h-${type}`,
      otpHash: `o-${type}`,
      relatesTo: "ann@example.com",
      createdAt: CONFIRMED,
    });
  }
  const unlinkEmail = () => unlinkIdentity(deps, { userId: user.id, identityId: email.id });
  return { tables, user, unlinkEmail };
}

describe("unlinking the email identity", () => {
  it("leaves an address the remaining identity does not vouch for unconfirmed, pending tokens gone", async () => {
    const { tables, user, unlinkEmail } = setup({ email: "Other@example.com", email_verified: false });
    expect(await unlinkEmail()).toEqual({ ok: true, value: {} });
    expect(tables.users.get(user.id)).toMatchObject({
      email: "other@example.com",
      emailConfirmedAt: null,
      recoverySentAt: null,
      emailChange: null,
      emailChangeSentAt: null,
      userMetadata: { email_verified: false },
    });
    expect([...tables.oneTimeTokens.values()].filter((t) => t.userId === user.id)).toEqual([]);
  });

  it("does so under mailer autoconfirm too", async () => {
    const { tables, user, unlinkEmail } = setup({ email: "other@example.com", email_verified: false }, true);
    expect((await unlinkEmail()).ok).toBe(true);
    expect(tables.users.get(user.id)).toMatchObject({ email: "other@example.com", emailConfirmedAt: null });
  });

  it("keeps a verified address confirmed, the pending tokens of the old one gone", async () => {
    const { tables, user, unlinkEmail } = setup({ email: "other@example.com", email_verified: true });
    expect((await unlinkEmail()).ok).toBe(true);
    expect(tables.users.get(user.id)).toMatchObject({
      email: "other@example.com",
      emailConfirmedAt: CONFIRMED,
      emailChange: null,
    });
    expect([...tables.oneTimeTokens.values()].filter((t) => t.userId === user.id)).toEqual([]);
  });
});
