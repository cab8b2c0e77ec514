import { describe, expect, it } from "vitest";
import { failures } from "../failures.js";
import { exchangeAuthCode } from "../pkce/index.js";
import type { AuthSettings } from "../settings.js";
import { anIdentity, aUser, type FakePerson, fakeDeps, fakeProviders } from "../testing/index.js";
import { completeExternalSignIn } from "./complete-external-sign-in.js";
import { startExternalSignIn } from "./start-external-sign-in.js";

const VERIFIER = "a-plain-verifier-of-at-least-forty-three-characters";

function setup(settings: Partial<AuthSettings> = {}) {
  const deps = fakeDeps(settings);
  const idp = fakeProviders("keycloak");
  const all = { ...deps, providers: idp.providers };
  /** Runs /authorize then /callback for `person`; answers the callback's result. */
  async function signIn(person: FakePerson, options: { pkce?: boolean; linkingTargetId?: string } = {}) {
    const started = await startExternalSignIn(all, {
      provider: "keycloak",
      redirectTo: "http://localhost:3000/done",
      ...(options.pkce ? { pkce: { codeChallenge: VERIFIER, method: "plain" as const } } : {}),
      ...(options.linkingTargetId ? { linkingTargetId: options.linkingTargetId } : {}),
    });
    if (!started.ok) throw started.error;
    const state = idp.requests.at(-1)?.state;
    const browserBinding = started.value.browserBinding ?? undefined;
    return completeExternalSignIn(all, { state, code: idp.authorize(person), browserBinding });
  }
  return { deps: all, idp, tables: deps.store.tables, signIn };
}

const person = (fields: Partial<FakePerson> = {}): FakePerson => ({
  subject: "kc-1",
  email: "ann@example.com",
  verified: true,
  ...fields,
});
/** A callback's `state` with the binding the browser that started the flow holds. */
const bound = (deps: { tokens: { flowBinding(id: string): string } }, state: string | undefined) => ({
  state,
  browserBinding: deps.tokens.flowBinding(state ?? ""),
});
const sessionOf = (r: Awaited<ReturnType<typeof completeExternalSignIn>>) => {
  if (!r.ok || r.value.kind !== "session") throw new Error(`no session: ${JSON.stringify(r)}`);
  return r.value;
};
const failureOf = (r: Awaited<ReturnType<typeof completeExternalSignIn>>) => {
  if (r.ok) throw new Error("expected a failure");
  return r.error;
};

describe("external sign-in: create, sign in, link", () => {
  it("creates a confirmed user for a verified address, with the identity and an oauth session", async () => {
    const { signIn, tables, deps } = setup();
    const done = sessionOf(await signIn(person({ name: "Ann" })));
    expect(done.redirectTo).toBe("http://localhost:3000/done");
    expect(done.provider).toMatchObject({ accessToken: "pat-kc-1", refreshToken: "prt-kc-1" });
    expect(done.tokens.session.amr[0]?.method).toBe("oauth");
    expect(done.tokens.user).toMatchObject({
      email: "ann@example.com",
      emailConfirmedAt: deps.clock.now(),
      appMetadata: { provider: "keycloak", providers: ["keycloak"] },
      userMetadata: { sub: "kc-1", name: "Ann", email_verified: true },
    });
    expect([...tables.identities.values()]).toMatchObject([{ provider: "keycloak", providerId: "kc-1" }]);
    expect(tables.audit.map((a) => a.action)).toContain("user_signedup");
  });

  it("signs a known identity in again and refreshes its identity data", async () => {
    const { signIn, tables } = setup();
    const first = sessionOf(await signIn(person({ name: "Ann" })));
    const again = sessionOf(await signIn(person({ name: "Ann B." })));
    expect(again.tokens.user.id).toBe(first.tokens.user.id);
    expect(tables.users.size).toBe(1);
    expect([...tables.identities.values()][0]?.identityData.name).toBe("Ann B.");
    expect(again.tokens.user.userMetadata.name).toBe("Ann B.");
    expect(tables.audit.at(-1)).toMatchObject({ action: "login", traits: { provider: "keycloak" } });
  });

  it("links a verified address to the confirmed account that owns it", async () => {
    const { signIn, tables } = setup();
    const ann = aUser({
      email: "ann@example.com",
      emailConfirmedAt: new Date("2025-01-01T00:00:00Z"),
      appMetadata: { provider: "email", providers: ["email"] },
    });
    tables.users.set(ann.id, ann);
    tables.identities.set("e", anIdentity(ann, { id: "e" }));
    const done = sessionOf(await signIn(person()));
    expect(done.tokens.user.id).toBe(ann.id);
    expect(done.tokens.user.appMetadata).toEqual({ provider: "email", providers: ["email", "keycloak"] });
    expect(tables.audit.map((a) => a.action)).toContain("identity_linked");
  });

  it("never links an address the provider does not vouch for: a new account, the address left out", async () => {
    const { signIn, tables, deps } = setup();
    const ann = aUser({ email: "ann@example.com", emailConfirmedAt: new Date("2025-01-01T00:00:00Z") });
    tables.users.set(ann.id, ann);
    const done = failureOf(await signIn(person({ verified: false })));
    expect(done).toMatchObject({ error: { code: "provider_email_needs_verification" } });
    const created = [...tables.users.values()].find((u) => u.id !== ann.id);
    expect(created).toMatchObject({ email: null, emailConfirmedAt: null });
    expect(deps.mailer.sent).toEqual([]);
  });

  it("mails a confirmation for an unverified new address and refuses with provider_email_needs_verification", async () => {
    const { signIn, tables, deps } = setup();
    const refused = failureOf(await signIn(person({ verified: false })));
    expect(refused).toMatchObject({
      redirectTo: "http://localhost:3000/done",
      error: {
        code: "provider_email_needs_verification",
        message: "Unverified email with keycloak. A confirmation email has been sent to your keycloak email",
      },
    });
    expect(deps.mailer.sent).toMatchObject([{ kind: "confirmation", to: "ann@example.com" }]);
    expect([...tables.users.values()]).toMatchObject([{ email: "ann@example.com", emailConfirmedAt: null }]);
  });

  it("sends that confirmation only once the transaction has committed", async () => {
    const { signIn, deps } = setup();
    let open = 0;
    const transaction = deps.store.transaction.bind(deps.store);
    deps.store.transaction = async (fn) => {
      open += 1;
      try {
        return await transaction(fn);
      } finally {
        open -= 1;
      }
    };
    const openDuringSend: number[] = [];
    const send = deps.mailer.send;
    deps.mailer.send = async (mail) => {
      openDuringSend.push(open);
      await send(mail);
    };
    failureOf(await signIn(person({ verified: false })));
    expect(openDuringSend).toEqual([0]);
  });

  it("answers a refused confirmation mail as email_send_failed and removes the user it created", async () => {
    const { signIn, tables, deps } = setup();
    deps.mailer.send = async () => {
      throw failures.emailSendFailed("confirmation");
    };
    expect(failureOf(await signIn(person({ verified: false })))).toMatchObject({
      error: { code: "email_send_failed" },
    });
    expect([...tables.users.values()]).toEqual([]);
    expect([...tables.oneTimeTokens.values()]).toEqual([]);
  });

  it("takes an unconfirmed account over from whoever signed up with the address first (pre-account takeover)", async () => {
    const { signIn, tables } = setup();
    const squatter = aUser({
      email: "ann@example.com",
      encryptedPassword: "plain$attacker",
      userMetadata: { evil: true },
    });
    tables.users.set(squatter.id, squatter);
    tables.identities.set("e", anIdentity(squatter, { id: "e", identityData: { email: "ann@example.com" } }));
    const done = sessionOf(await signIn(person()));
    expect(done.tokens.user).toMatchObject({
      id: squatter.id,
      encryptedPassword: null,
      emailConfirmedAt: expect.any(Date),
    });
    expect(done.tokens.user.userMetadata.evil).toBeUndefined();
    expect([...tables.identities.values()].map((i) => i.provider)).toEqual(["keycloak"]);
  });

  it("refuses a banned user and, with sign-ups disabled, a new one", async () => {
    const banned = setup();
    sessionOf(await banned.signIn(person()));
    const [user] = [...banned.tables.users.values()];
    if (!user) throw new Error("no user");
    banned.tables.users.set(user.id, { ...user, bannedUntil: new Date("2099-01-01T00:00:00Z") });
    expect(failureOf(await banned.signIn(person()))).toMatchObject({ error: { code: "user_banned" } });
    const closed = setup({ signup: { ...fakeDeps().settings.signup, disabled: true } });
    expect(failureOf(await closed.signIn(person()))).toMatchObject({ error: { code: "signup_disabled" } });
  });
});

describe("external sign-in: state, PKCE and linking", () => {
  it("uses a state once and refuses unknown, malformed and expired ones, redirecting to SITE_URL", async () => {
    const { deps, idp } = setup();
    await startExternalSignIn(deps, { provider: "keycloak" });
    const state = idp.requests.at(-1)?.state;
    const code = idp.authorize(person());
    const browserBinding = deps.tokens.flowBinding(state ?? "");
    sessionOf(await completeExternalSignIn(deps, { state, code, browserBinding }));
    const replay = failureOf(
      await completeExternalSignIn(deps, { state, code: idp.authorize(person()), browserBinding }),
    );
    expect(replay).toMatchObject({
      stateKnown: false,
      redirectTo: "http://localhost:3000",
      error: { code: "bad_oauth_state", message: "OAuth state not found or expired" },
    });
    expect(failureOf(await completeExternalSignIn(deps, { state: "x", code }))).toMatchObject({
      error: { code: "bad_oauth_state" },
    });
    expect(failureOf(await completeExternalSignIn(deps, { code }))).toMatchObject({
      error: { code: "bad_oauth_callback" },
    });
    await startExternalSignIn(deps, { provider: "keycloak" });
    deps.clock.advance(301_000);
    const late = await completeExternalSignIn(deps, {
      ...bound(deps, idp.requests.at(-1)?.state),
      code: idp.authorize(person()),
    });
    expect(failureOf(late)).toMatchObject({
      error: { code: "bad_oauth_state", message: "OAuth state has expired" },
    });
  });

  it("refuses a sign-in flow completed by another browser: no binding, or another flow's", async () => {
    const { deps, idp, tables } = setup();
    const first = await startExternalSignIn(deps, {
      provider: "keycloak",
      redirectTo: "http://localhost:3000/x",
    });
    const second = await startExternalSignIn(deps, { provider: "keycloak" });
    if (!first.ok || !second.ok) throw new Error("not started");
    expect(first.value.browserBinding).toBe(deps.tokens.flowBinding(first.value.state));
    const refused = { code: "bad_oauth_state", message: "OAuth state was not started in this browser" };
    const without = await completeExternalSignIn(deps, {
      state: first.value.state,
      code: idp.authorize(person()),
    });
    expect(failureOf(without)).toMatchObject({
      stateKnown: true,
      redirectTo: "http://localhost:3000/x",
      error: refused,
    });
    const swapped = await completeExternalSignIn(deps, {
      state: second.value.state,
      code: idp.authorize(person()),
      browserBinding: first.value.browserBinding ?? "",
    });
    expect(failureOf(swapped)).toMatchObject({ error: refused });
    expect(tables.users.size).toBe(0);
    // The state is used up: the right browser cannot retry it either.
    const late = await completeExternalSignIn(deps, {
      ...bound(deps, first.value.state),
      code: idp.authorize(person()),
    });
    expect(failureOf(late)).toMatchObject({ error: { message: "OAuth state not found or expired" } });
  });

  it("binds no manual linking flow to a browser: the signed-in user who started it binds it", async () => {
    const { deps, tables } = setup();
    const bob = aUser({ email: "bob@example.com", emailConfirmedAt: new Date("2025-01-01T00:00:00Z") });
    tables.users.set(bob.id, bob);
    const started = await startExternalSignIn(deps, { provider: "keycloak", linkingTargetId: bob.id });
    expect(started).toMatchObject({ ok: true, value: { browserBinding: null } });
  });

  it("passes the provider's own refusal on (consent denied) and refuses a code the provider rejects", async () => {
    const { deps, idp } = setup();
    await startExternalSignIn(deps, { provider: "keycloak", redirectTo: "http://localhost:3000/x" });
    const denied = await completeExternalSignIn(deps, {
      ...bound(deps, idp.requests.at(-1)?.state),
      error: "access_denied",
      errorDescription: "consent denied",
    });
    expect(failureOf(denied)).toEqual({
      stateKnown: true,
      redirectTo: "http://localhost:3000/x",
      providerError: { error: "access_denied", description: "consent denied" },
    });
    await startExternalSignIn(deps, { provider: "keycloak" });
    const bad = await completeExternalSignIn(deps, {
      ...bound(deps, idp.requests.at(-1)?.state),
      code: "code-unknown",
    });
    expect(failureOf(bad)).toMatchObject({ stateKnown: true, error: { code: "unexpected_failure" } });
  });

  it("answers a PKCE flow with a code that the verifier exchanges for the session and provider tokens", async () => {
    const { signIn, deps } = setup();
    const result = await signIn(person(), { pkce: true });
    if (!result.ok || result.value.kind !== "code") throw new Error("expected a code");
    const exchanged = await exchangeAuthCode(deps, { authCode: result.value.code, codeVerifier: VERIFIER });
    expect(exchanged).toMatchObject({
      ok: true,
      value: {
        providerType: "keycloak",
        providerAccessToken: "pat-kc-1",
        providerRefreshToken: "prt-kc-1",
        tokens: { user: { email: "ann@example.com" } },
      },
    });
  });

  it("forwards extra parameters but not reserved ones, and refuses a disabled provider", async () => {
    const { deps, idp } = setup();
    await startExternalSignIn(deps, {
      provider: "keycloak",
      scopes: "openid offline_access",
      query: {
        prompt: "consent",
        state: "evil",
        redirect_uri: "https://evil.example",
        workos_provider: "GoogleOAuth",
      },
    });
    expect(idp.requests.at(-1)).toMatchObject({
      scopes: ["openid", "offline_access"],
      extraParams: { prompt: "consent", provider: "GoogleOAuth" },
    });
    expect(idp.requests.at(-1)?.extraParams).not.toHaveProperty("redirect_uri");
    expect(await startExternalSignIn(deps, { provider: "github" })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
  });

  it("links to the signed-in target user, once", async () => {
    const { signIn, tables } = setup();
    const bob = aUser({ email: "bob@example.com", emailConfirmedAt: new Date("2025-01-01T00:00:00Z") });
    tables.users.set(bob.id, bob);
    tables.identities.set("e", anIdentity(bob, { id: "e" }));
    const done = sessionOf(await signIn(person({ email: "other@example.com" }), { linkingTargetId: bob.id }));
    expect(done.tokens.user).toMatchObject({
      id: bob.id,
      email: "bob@example.com",
      appMetadata: { providers: ["email", "keycloak"] },
    });
    const again = failureOf(
      await signIn(person({ email: "other@example.com" }), { linkingTargetId: bob.id }),
    );
    expect(again).toMatchObject({
      error: { code: "identity_already_exists", message: "Identity is already linked" },
    });
  });
});
