import { describe, expect, it } from "vitest";
import { aUser, fakeDeps, fakeProviders } from "../testing/index.js";
import { signInWithIdToken } from "./sign-in-with-id-token.js";

const ANN = { subject: "kc-ann", email: "ann@example.com", verified: true };

function setup(manualLinkingEnabled = false) {
  const deps = fakeDeps({ manualLinkingEnabled });
  const idp = fakeProviders("keycloak");
  return { deps: { ...deps, providers: idp.providers }, idp, tables: deps.store.tables };
}
const failure = (code: string, message?: string) => ({
  ok: false,
  error: expect.objectContaining({ code, ...(message ? { message } : {}) }),
});

describe("signInWithIdToken", () => {
  it("signs in with a verified ID token, creating the account, when the nonce hash matches", async () => {
    const { deps, idp, tables } = setup();
    // The client hashes its nonce for the provider; the fake hash is h(…).
    const result = await signInWithIdToken(deps, {
      provider: "keycloak",
      idToken: idp.idToken(ANN, "h(n-1)"),
      nonce: "n-1",
    });
    expect(result).toMatchObject({
      ok: true,
      value: { user: { email: "ann@example.com" }, session: { amr: [{ method: "oauth" }] } },
    });
    expect([...tables.identities.values()]).toMatchObject([{ provider: "keycloak", providerId: "kc-ann" }]);
  });

  it("enforces the nonce rule: both or neither, and the claim is the hash of the parameter", async () => {
    const { deps, idp } = setup();
    const both = "Passed nonce and nonce in id_token should either both exist or not.";
    expect(
      await signInWithIdToken(deps, { provider: "keycloak", idToken: idp.idToken(ANN, "h(n)") }),
    ).toEqual(failure("validation_failed", both));
    expect(
      await signInWithIdToken(deps, { provider: "keycloak", idToken: idp.idToken(ANN), nonce: "n" }),
    ).toEqual(failure("validation_failed", both));
    expect(
      await signInWithIdToken(deps, { provider: "keycloak", idToken: idp.idToken(ANN, "h(n)"), nonce: "m" }),
    ).toEqual(failure("validation_failed", "Nonces mismatch"));
    expect(await signInWithIdToken(deps, { provider: "keycloak", idToken: idp.idToken(ANN) })).toMatchObject({
      ok: true,
    });
  });

  it("refuses a bad token and a provider that is not enabled", async () => {
    const { deps } = setup();
    expect(await signInWithIdToken(deps, { provider: "keycloak", idToken: "forged" })).toEqual(
      failure("validation_failed", "Bad ID token"),
    );
    expect(await signInWithIdToken(deps, { provider: "google", idToken: "x" })).toEqual(
      failure("provider_disabled", 'Provider (issuer "https://accounts.google.com") is not enabled'),
    );
    expect(await signInWithIdToken(deps, { provider: "azure", idToken: "x" })).toEqual(
      failure("provider_disabled", "Provider azure is not enabled"),
    );
  });

  it("links to the signed-in user only with manual linking enabled", async () => {
    const off = setup(false);
    const bob = aUser({ email: "bob@example.com", emailConfirmedAt: new Date("2025-01-01T00:00:00Z") });
    off.tables.users.set(bob.id, bob);
    expect(
      await signInWithIdToken(off.deps, {
        provider: "keycloak",
        idToken: off.idp.idToken(ANN),
        linkTargetId: bob.id,
      }),
    ).toEqual(failure("manual_linking_disabled"));
    const on = setup(true);
    on.tables.users.set(bob.id, bob);
    const linked = await signInWithIdToken(on.deps, {
      provider: "keycloak",
      idToken: on.idp.idToken(ANN),
      linkTargetId: bob.id,
    });
    expect(linked).toMatchObject({ ok: true, value: { user: { id: bob.id, email: "bob@example.com" } } });
    expect([...on.tables.identities.values()].map((i) => i.userId)).toEqual([bob.id]);
  });
});
