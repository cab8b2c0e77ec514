import { describe, expect, it } from "vitest";
import { blankUser, type Identity } from "../accounts/index.js";
import { sendMagicLink } from "../passwordless/index.js";
import { recoverPassword } from "../recovery/index.js";
import { signUp } from "../signup/index.js";
import { fakeDeps } from "../testing/index.js";
import { linkTokenOf } from "../testing/messaging/message-helpers.js";
import { verifyOtp } from "./verify.js";

const ID = "11111111-1111-4111-8111-111111111111";

/**
 * Someone's account, confirmed by phone, holding alice@example.com unconfirmed (taken from a linked
 * identity whose provider did not vouch for it): Alice owns the mailbox, not necessarily the account.
 */
function phoneAccountWithAlicesAddress(fields: { encryptedPassword?: string | null } = {}) {
  const deps = fakeDeps();
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: new Date("2025-01-01T00:00:00Z"),
    email: "alice@example.com",
    phone: "15550001111",
    phoneConfirmedAt: new Date("2025-01-01T00:00:00Z"),
    ...fields,
  });
  deps.store.tables.users.set(ID, user);
  return { deps, user };
}

describe("an address unconfirmed on an account confirmed by phone", () => {
  it("gets no magic link (nor the confirmation in its place): {} and nothing mailed or changed", async () => {
    for (const encryptedPassword of [null, "plain$someone-elses"]) {
      const { deps, user } = phoneAccountWithAlicesAddress({ encryptedPassword });
      expect(await sendMagicLink(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
      expect(deps.mailer.sent).toEqual([]);
      expect(deps.store.tables.users.get(ID)).toEqual(user);
    }
  });

  it("gets no recovery mail: {} and nothing mailed or changed", async () => {
    const { deps, user } = phoneAccountWithAlicesAddress({ encryptedPassword: "plain$someone-elses" });
    expect(await recoverPassword(deps, { email: "alice@example.com" })).toEqual({ ok: true, value: {} });
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.store.tables.users.get(ID)).toEqual(user);
  });
});

/**
 * An account never confirmed, made by an external sign-in whose provider did not vouch for
 * alice@example.com (a confirmation went to Alice, unasked): whoever holds that provider identity may
 * not be Alice, and signs in with it once the account is confirmed.
 */
function unconfirmedExternalAccount() {
  const deps = fakeDeps();
  const created = new Date("2025-01-01T00:00:00Z");
  const user = blankUser({
    id: ID,
    aud: "authenticated",
    role: "authenticated",
    createdAt: created,
    email: "alice@example.com",
    appMetadata: { provider: "keycloak", providers: ["keycloak"] },
  });
  const identity: Identity = {
    id: "e1111111-1111-4111-8111-111111111111",
    providerId: "intruder-subject",
    userId: ID,
    provider: "keycloak",
    identityData: { sub: "intruder-subject", email: "alice@example.com", email_verified: false },
    lastSignInAt: created,
    createdAt: created,
    updatedAt: created,
  };
  deps.store.tables.users.set(ID, user);
  deps.store.tables.identities.set(identity.id, identity);
  const providersOf = () => deps.store.tables.users.get(ID)?.appMetadata.providers;
  const identitiesOf = () => [...deps.store.tables.identities.values()].filter((i) => i.userId === ID);
  return { deps, providersOf, identitiesOf };
}

describe("an account never confirmed, holding an identity its provider did not vouch for", () => {
  it("loses that identity when the address's owner proves the mailbox by magic link", async () => {
    const { deps, providersOf, identitiesOf } = unconfirmedExternalAccount();
    await sendMagicLink(deps, { email: "alice@example.com" });
    const verified = await verifyOtp(deps, {
      type: "magiclink",
      tokenHash: linkTokenOf(deps.mailer.sent.at(-1)),
    });
    expect(verified.ok).toBe(true);
    expect(identitiesOf().map((i) => i.provider)).toEqual(["email"]);
    expect(providersOf()).toEqual(["email"]);
  });

  it("loses it when the address's owner signs up, before the resent confirmation is used", async () => {
    const { deps, providersOf, identitiesOf } = unconfirmedExternalAccount();
    await signUp(deps, { email: "alice@example.com", password: "alices-pw" });
    const mail = deps.mailer.sent.at(-1);
    expect(mail?.kind).toBe("confirmation");
    const verified = await verifyOtp(deps, { type: "email", token: mail?.token, email: "alice@example.com" });
    expect(verified.ok).toBe(true);
    expect(identitiesOf().map((i) => i.provider)).toEqual(["email"]);
    expect(providersOf()).toEqual(["email"]);
  });
});
