import { describe, expect, it } from "vitest";
import { blankUser } from "../accounts/index.js";
import { generateLink, inviteUser } from "../admin/index.js";
import { signInWithIdToken } from "../external/index.js";
import { failures } from "../failures.js";
import { err, ok } from "../kernel/index.js";
import { sendSmsOtp } from "../passwordless/index.js";
import { signInWithPassword } from "../sessions/index.js";
import { signUp } from "../signup/index.js";
import { fakeDeps, fakeHooks, fakeProviders } from "../testing/index.js";
import { rollingBack } from "../testing/rolling-back-store.js";
import { validAccessTokenClaims } from "./access-token-claims.js";
import { hookAnswerFailure } from "./hook-answer.js";
import { mfaVerificationAttempt } from "./steps.js";

const USER_ID = "11111111-1111-4111-8111-111111111111";
const REQUIRED = {
  aud: "authenticated",
  exp: 2,
  iat: 1,
  sub: USER_ID,
  email: "",
  phone: "",
  role: "authenticated",
  aal: "aal1",
  session_id: "s",
  is_anonymous: false,
};

function withUser(hooks: ReturnType<typeof fakeHooks>) {
  const base = fakeDeps();
  const deps = { ...base, store: rollingBack(base.store), hooks: hooks.dispatcher };
  const now = deps.clock.now();
  deps.store.tables.users.set(
    USER_ID,
    blankUser({
      id: USER_ID,
      aud: "authenticated",
      role: "authenticated",
      createdAt: now,
      email: "alice@example.com",
      encryptedPassword: "plain$secret1",
      emailConfirmedAt: now,
    }),
  );
  return deps;
}
const signIn = (deps: ReturnType<typeof withUser>, password = "secret1") =>
  signInWithPassword(deps, { email: "alice@example.com", password });

describe("the custom access token hook", () => {
  it("replaces the claims with the hook's, called once the grant committed", async () => {
    const hooks = fakeHooks({
      custom_access_token: (input) => {
        const { claims } = input as { claims: Record<string, unknown> };
        return ok({ claims: { ...claims, plan: "gold", email: "hidden" } });
      },
    });
    const deps = withUser(hooks);
    const result = await signIn(deps);
    if (!result.ok) throw result.error;
    const claims = await deps.signer.verify(result.value.accessToken);
    expect(claims).toMatchObject({
      sub: USER_ID,
      plan: "gold",
      email: "hidden",
      amr: [{ method: "password" }],
    });
    const [call] = hooks.calls;
    expect(call?.input).toMatchObject({ user_id: USER_ID, authentication_method: "password" });
  });

  it("ends the new session when the hook refuses or answers claims a token cannot do without", async () => {
    const refusing = withUser(
      fakeHooks({ custom_access_token: () => err(failures.hookError(403, "No token")) }),
    );
    expect(await signIn(refusing)).toMatchObject({ ok: false, error: { message: "No token" } });
    expect(refusing.store.tables.sessions.size).toBe(0);
    expect(refusing.store.tables.tokens.size).toBe(0);

    const careless = withUser(fakeHooks({ custom_access_token: () => ok({ claims: { sub: USER_ID } }) }));
    expect(await signIn(careless)).toMatchObject({
      ok: false,
      error: { code: "unexpected_failure", message: expect.stringContaining("(root): aud is required") },
    });
    expect(careless.store.tables.sessions.size).toBe(0);
  });
});

describe("validAccessTokenClaims", () => {
  it("keeps claims that hold the required ones with their types", () => {
    expect(
      validAccessTokenClaims({ claims: { ...REQUIRED, aud: ["a", "b"], amr: ["pwd", { method: "otp" }] } })
        .ok,
    ).toBe(true);
  });

  it("lists every missing or mistyped claim", () => {
    const result = validAccessTokenClaims({
      claims: { ...REQUIRED, exp: "soon", role: undefined, amr: [1] },
    });
    expect(!result.ok && result.error.message).toBe(
      "output claims do not conform to the expected schema: \n" +
        "- exp: Invalid type. Expected: integer\n- role: Invalid type. Expected: string\n" +
        "- amr: Invalid type. Expected: array of strings or objects\n",
    );
    expect(validAccessTokenClaims({}).ok).toBe(false);
  });
});

describe("hookAnswerFailure", () => {
  it("reads the error protocol: a message is a refusal with the hook's status (500 by default)", () => {
    expect(hookAnswerFailure({ error: { http_code: 400, message: "Bad" } })).toMatchObject({
      httpStatus: 400,
    });
    expect(hookAnswerFailure({ error: { message: "Broken" } })).toMatchObject({ httpStatus: 500 });
    expect(hookAnswerFailure({ error: { http_code: 400 } })).toBeNull();
    expect(hookAnswerFailure({ claims: {} })).toBeNull();
    expect(hookAnswerFailure(null)).toBeNull();
  });
});

describe("the password verification attempt hook", () => {
  it("hears each attempt on an existing account with whether the password was right", async () => {
    const hooks = fakeHooks({ password_verification_attempt: () => ok({ decision: "continue" }) });
    const deps = withUser(hooks);
    expect((await signIn(deps)).ok).toBe(true);
    expect((await signIn(deps, "wrong")).ok).toBe(false);
    await signInWithPassword(deps, { email: "nobody@example.com", password: "secret1" });
    expect(hooks.calls.map((c) => c.input)).toEqual([
      { user_id: USER_ID, valid: true },
      { user_id: USER_ID, valid: false },
    ]);
  });

  it("refuses a rejected attempt with the hook's message, and ends the sessions when asked", async () => {
    let reject = false;
    const deps = withUser(
      fakeHooks({
        password_verification_attempt: () =>
          ok(reject ? { decision: "reject", message: "Locked", should_logout_user: true } : {}),
      }),
    );
    expect((await signIn(deps)).ok).toBe(true);
    expect(deps.store.tables.sessions.size).toBe(1);
    reject = true;
    expect(await signIn(deps)).toMatchObject({
      ok: false,
      error: { code: "invalid_credentials", message: "Locked" },
    });
    expect(deps.store.tables.sessions.size).toBe(0);
  });

  it("answers the reference's message for a rejection without one, and the hook's failure as it is", async () => {
    const deps = withUser(fakeHooks({ password_verification_attempt: () => ok({ decision: "reject" }) }));
    expect(await signIn(deps)).toMatchObject({
      ok: false,
      error: { message: "Further password verification attempts will be rejected." },
    });
    const failing = withUser(
      fakeHooks({ password_verification_attempt: () => err(failures.hookTimeout(5)) }),
    );
    expect(await signIn(failing)).toMatchObject({ ok: false, error: { code: "hook_timeout" } });
  });
});

describe("the before-user-created hook", () => {
  it("vets a new sign-up's user before creating it; its refusal creates nobody", async () => {
    const hooks = fakeHooks({
      before_user_created: (input) =>
        (input as { user: { email: string } }).user.email.endsWith("@blocked.example")
          ? err(failures.hookError(403, "Closed"))
          : ok({}),
    });
    const deps = { ...fakeDeps(), hooks: hooks.dispatcher };
    const refused = await signUp(deps, { email: "x@blocked.example", password: "secret1" });
    expect(refused).toMatchObject({ ok: false, error: { message: "Closed", httpStatus: 403 } });
    expect(deps.store.tables.users.size).toBe(0);
    const accepted = await signUp(deps, { email: "a@example.com", password: "secret1" });
    expect(accepted.ok).toBe(true);
    expect(deps.store.tables.users.size).toBe(1);
    // A repeated sign-up creates nobody: the hook is not asked.
    await signUp(deps, { email: "a@example.com", password: "secret1" });
    expect(hooks.calls).toHaveLength(2);
  });

  it("vets anonymous sign-ins too", async () => {
    const hooks = fakeHooks({
      before_user_created: () => err(failures.hookError(400, "No anonymous users")),
    });
    const base = fakeDeps({ signup: { ...fakeDeps().settings.signup, anonymousEnabled: true } });
    const deps = { ...base, hooks: hooks.dispatcher };
    expect(await signUp(deps, {})).toMatchObject({ ok: false, error: { message: "No anonymous users" } });
    expect(deps.store.tables.users.size).toBe(0);
  });
});

describe("the before-user-created hook in the other flows that create users", () => {
  const refusingHooks = () =>
    fakeHooks({ before_user_created: () => err(failures.hookError(422, "Not here")) });
  const refusal = { ok: false, error: { message: "Not here", httpStatus: 422 } };
  const actor = { role: "service_role" };

  it("refuses an invitation, a generated sign-up or invite link and an SMS code for a new address", async () => {
    const hooks = refusingHooks();
    const deps = { ...fakeDeps(), hooks: hooks.dispatcher };
    expect(await inviteUser(deps, { actor, email: "new@example.com" })).toMatchObject(refusal);
    for (const type of ["signup", "invite", "magiclink"]) {
      expect(
        await generateLink(deps, { actor, type, email: "new@example.com", password: "secret1" }),
      ).toMatchObject(refusal);
    }
    expect(await sendSmsOtp(deps, { phone: "+15551234567" })).toMatchObject(refusal);
    expect(deps.store.tables.users.size).toBe(0);
    expect(deps.mailer.sent).toEqual([]);
    expect(hooks.calls.map((c) => c.name)).toEqual(Array(5).fill("before_user_created"));
  });

  it("refuses an ID-token sign-in that would create an account, and asks with the account it would be", async () => {
    const hooks = refusingHooks();
    const idp = fakeProviders("keycloak");
    const deps = { ...fakeDeps(), providers: idp.providers, hooks: hooks.dispatcher };
    const person = { subject: "kc-ann", email: "ann@example.com", verified: true };
    expect(
      await signInWithIdToken(deps, { provider: "keycloak", idToken: idp.idToken(person) }),
    ).toMatchObject(refusal);
    expect(deps.store.tables.users.size).toBe(0);
    expect(hooks.calls[0]?.input).toMatchObject({
      user: { email: "ann@example.com", appMetadata: { provider: "keycloak" } },
    });
  });

  it("does not ask about an address that already has its user", async () => {
    const hooks = refusingHooks();
    const deps = { ...withUser(hooks), hooks: hooks.dispatcher };
    const link = await generateLink(deps, { actor, type: "magiclink", email: "alice@example.com" });
    expect(link.ok).toBe(true);
    expect(hooks.calls).toEqual([]);
  });
});

describe("mfaVerificationAttempt", () => {
  const attempt = { userId: USER_ID, factorId: "f", factorType: "totp", valid: false };
  it("turns a rejection into 403 mfa_verification_rejected, with the reference's default message", async () => {
    const hooks = fakeHooks({ mfa_verification_attempt: () => ok({ decision: "reject" }) });
    const verdict = await mfaVerificationAttempt({ hooks: hooks.dispatcher }, attempt);
    expect(verdict).toMatchObject({
      rejected: true,
      refusal: {
        code: "mfa_verification_rejected",
        message: "Further MFA verification attempts will be rejected.",
      },
    });
    expect(hooks.calls[0]?.input).toEqual({
      user_id: USER_ID,
      factor_id: "f",
      factor_type: "totp",
      valid: false,
    });
    expect(await mfaVerificationAttempt({}, attempt)).toBeNull();
  });
});
