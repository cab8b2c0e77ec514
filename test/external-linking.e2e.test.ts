import type { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserClient } from "./support/browser-client.js";
import { type KeycloakServer, startKeycloakServer, WELCOME } from "./support/keycloak-server.js";

/**
 * Addresses a provider does not vouch for, end to end: the server with mailer autoconfirm and manual
 * linking on, its Keycloak provider pointed at a real OpenID Provider whose `unverified.<name>`
 * accounts claim `<name>@example.com` unverified (anyone can make such an account at many providers).
 */
let kc: KeycloakServer;

beforeAll(async () => {
  kc = await startKeycloakServer({
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_SECURITY_MANUAL_LINKING_ENABLED: "true",
  });
}, 60_000);

afterAll(async () => {
  await kc?.stop();
});

function client() {
  return browserClient(kc.server.url).client;
}

let counter = 0;
const name = (tag: string) => `${tag}-${Date.now()}-${++counter}`;

/** A password account at `email` (confirmed: mailer autoconfirm), signed in. */
async function passwordUser(email: string) {
  const auth = client();
  const { data, error } = await auth.signUp({ email, password: "secret-pw-1" });
  expect(error).toBeNull();
  return { auth, id: data.user?.id ?? "" };
}

/** Links the provider's account `login` to the user signed in on `auth`. */
async function linkProvider(auth: GoTrueClient, login: string) {
  const { data } = await auth.linkIdentity({
    provider: "keycloak",
    options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
  });
  const { landing } = await kc.browser.callback(await kc.browser.throughProvider(data.url ?? "", login));
  expect(new URLSearchParams(landing.hash.slice(1)).get("access_token"), landing.toString()).toBeTruthy();
}

describe("an address the provider does not vouch for", () => {
  it("never signs into the account that owns it, mailer autoconfirm or not", async () => {
    const victim = name("victim");
    const owner = await passwordUser(`${victim}@example.com`);
    const user = await kc.signIn(`unverified.${victim}`);
    expect(user?.id).not.toBe(owner.id);
    expect(user?.email ?? "").toBe("");
    const identities = await owner.auth.getUserIdentities();
    expect(identities.data?.identities.map((i) => i.provider)).toEqual(["email"]);
  });

  it("linked to an attacker's account, never leads the verified owner there", async () => {
    const victim = name("newcomer");
    const attacker = await passwordUser(`${name("attacker")}@example.org`);
    await linkProvider(attacker.auth, `unverified.${victim}`);
    const user = await kc.signIn(victim);
    expect(user?.id).not.toBe(attacker.id);
    expect(user?.email).toBe(`${victim}@example.com`);
  });

  it("linked to an attacker's account, leaves the verified owner their own account (no 500)", async () => {
    const victim = name("owner");
    const owner = await passwordUser(`${victim}@example.com`);
    const attacker = await passwordUser(`${name("attacker")}@example.org`);
    await linkProvider(attacker.auth, `unverified.${victim}`);
    const user = await kc.signIn(victim);
    expect(user?.id).toBe(owner.id);
    expect(user?.identities?.map((i) => i.provider).sort()).toEqual(["email", "keycloak"]);
  });

  it("is not taken by a first sign-in under autoconfirm: its owner signs up and signs in to their own account", async () => {
    const victim = name("first");
    const attacker = await kc.signIn(`unverified.${victim}`);
    expect(attacker?.email ?? "").toBe("");
    // The owner's password sign-up is not refused with user_already_exists.
    const owner = await passwordUser(`${victim}@example.com`);
    expect(owner.id).not.toBe(attacker?.id);
    // The owner's verified sign-in with the provider joins the owner's account, not the attacker's.
    const user = await kc.signIn(victim);
    expect(user?.id).toBe(owner.id);
    // The attacker's identity still opens only the attacker's account, without the address.
    const again = await kc.signIn(`unverified.${victim}`);
    expect(again?.id).toBe(attacker?.id);
    expect(again?.email ?? "").toBe("");
  });

  it("is not taken by a first sign-in under autoconfirm: its verified owner gets an account of their own", async () => {
    const victim = name("later");
    const attacker = await kc.signIn(`unverified.${victim}`);
    const user = await kc.signIn(victim);
    expect(user?.id).not.toBe(attacker?.id);
    expect(user).toMatchObject({ email: `${victim}@example.com`, email_confirmed_at: expect.any(String) });
  });

  it("is not confirmed when unlinking the email identity makes it the user's email", async () => {
    const other = name("other");
    const { auth } = await passwordUser(`${name("unlinker")}@example.org`);
    await linkProvider(auth, `unverified.${other}`);
    const identities = (await auth.getUserIdentities()).data?.identities ?? [];
    const email = identities.find((i) => i.provider === "email");
    if (!email) throw new Error("no email identity");
    expect((await auth.unlinkIdentity(email)).error).toBeNull();
    const { data } = await auth.getUser();
    expect(data.user?.email).toBe(`${other}@example.com`);
    expect(data.user?.email_confirmed_at ?? null).toBeNull();
    expect(data.user?.user_metadata.email_verified).toBe(false);
  });
});

describe("the OAuth state is bound to the browser that started the flow", () => {
  it("refuses the provider's answer opened in another browser, and signs nobody in", async () => {
    const { data } = await client().signInWithOAuth({
      provider: "keycloak",
      options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
    });
    const back = await kc.browser.throughProvider(data.url ?? "", name("csrf"));
    const elsewhere = await kc.browser.callback(back, "another browser");
    expect(elsewhere.status).toBe(302);
    expect(`${elsewhere.landing.origin}${elsewhere.landing.pathname}`).toBe(WELCOME);
    expect(Object.fromEntries(elsewhere.landing.searchParams)).toEqual({
      error: "invalid_request",
      error_code: "bad_oauth_state",
      error_description: "OAuth state was not started in this browser",
    });
    expect(elsewhere.landing.hash).not.toContain("access_token");
    // The flow is used up: its own browser cannot complete it afterwards either.
    const late = await kc.browser.callback(back);
    expect(late.landing.searchParams.get("error_code")).toBe("bad_oauth_state");
  });
});
