import { FakeCaptcha } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const GOOD = "10000000-aaaa-bbbb-cccc-000000000001";

/** An app whose captcha provider accepts only GOOD. */
function guardedApp() {
  const captcha = new FakeCaptcha(new Set([GOOD]));
  const t = testApp({ captcha, trustedProxyHops: 1 });
  return { ...t, captcha };
}

const signup = (token?: unknown) => ({
  email: "captcha@example.com",
  password: "correct horse battery",
  ...(token === undefined ? {} : { gotrue_meta_security: { captcha_token: token } }),
});

describe("captcha guard", () => {
  it("refuses a sign-up without a token: 400 captcha_failed, in both error shapes", async () => {
    const { app, captcha } = guardedApp();
    const res = await send(app, "POST", "/signup", signup());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 400,
      error_code: "captcha_failed",
      msg: "captcha protection: request disallowed (no captcha_token found)",
    });
    const blank = await send(app, "POST", "/signup", signup("   "), NEW_API);
    expect(await blank.json()).toEqual({
      code: "captcha_failed",
      message: "captcha protection: request disallowed (no captcha_token found)",
    });
    expect(captcha.challenges).toEqual([]); // nothing to ask the provider
  });

  it("refuses a token the provider rejects, quoting its error codes, and creates no user", async () => {
    const { app, auth } = guardedApp();
    const res = await send(app, "POST", "/signup", signup("forged"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: "captcha_failed",
      msg: "captcha protection: request disallowed (invalid-input-response)",
    });
    expect(await auth.store.users.findByEmail("captcha@example.com")).toBeNull();
  });

  it("lets a sign-up with a good token through, passing the token trimmed and the client's IP", async () => {
    const { app, captcha } = guardedApp();
    // The client wrote the first entry; the trusted proxy appended the address it saw.
    const res = await send(app, "POST", "/signup", signup(`  ${GOOD} `), {
      "x-forwarded-for": "10.0.0.1, 203.0.113.5",
    });
    expect(res.status).toBe(200);
    expect(captcha.challenges).toEqual([{ token: GOOD, remoteIp: "203.0.113.5" }]);
  });

  it.each([
    ["/token?grant_type=password", { email: "a@example.com", password: "x" }],
    ["/otp", { email: "a@example.com" }],
    ["/magiclink", { email: "a@example.com" }],
    ["/recover", { email: "a@example.com" }],
    ["/resend", { type: "signup", email: "a@example.com" }],
    ["/signup", {}],
    ["/passkeys/authentication/options", {}],
  ])("guards POST %s", async (path, body) => {
    const { app } = guardedApp();
    const res = await send(app, "POST", path, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("x-sb-error-code")).toBe("captcha_failed");
  });

  it("lets a passkey sign-in start with a good token, and does not ask its verification for one", async () => {
    const { app } = guardedApp();
    const started = await send(app, "POST", "/passkeys/authentication/options", {
      gotrue_meta_security: { captcha_token: GOOD },
    });
    expect(started.status).toBe(200);
    const verify = await send(app, "POST", "/passkeys/authentication/verify", {});
    expect(verify.headers.get("x-sb-error-code")).toBe("validation_failed");
  });

  it.each(["refresh_token", "pkce", "id_token"])("does not guard the %s grant", async (grant) => {
    const { app, captcha } = guardedApp();
    const res = await send(app, "POST", `/token?grant_type=${grant}`, {});
    expect(res.headers.get("x-sb-error-code")).not.toBe("captcha_failed");
    expect(captcha.challenges).toEqual([]);
  });

  it("does not ask a caller with a service-role key, but does ask one with a user's key", async () => {
    const { app, auth } = guardedApp();
    const admin = await send(app, "POST", "/signup", signup(), await bearer(auth, { role: "service_role" }));
    expect(admin.status).toBe(200);
    const anon = await send(
      app,
      "POST",
      "/signup",
      { ...signup(), email: "b@example.com" },
      await bearer(auth, { role: "anon" }),
    );
    expect(anon.headers.get("x-sb-error-code")).toBe("captcha_failed");
  });

  it("answers 500 and lets nothing through when the provider cannot be reached", async () => {
    const { app, captcha, auth } = guardedApp();
    captcha.failNext = new Error("hCaptcha verification failed: no answer within 10000 ms");
    const res = await send(app, "POST", "/signup", signup(GOOD));
    expect(res.status).toBe(500);
    expect(res.headers.get("x-sb-error-code")).toBe("unexpected_failure");
    expect(await auth.store.users.findByEmail("captcha@example.com")).toBeNull();
  });

  it("answers bad_json for a body it cannot read, as the route would", async () => {
    const { app } = guardedApp();
    const res = await app.request("/otp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-sb-error-code")).toBe("bad_json");
  });

  it("guards nothing when no verifier is configured", async () => {
    const { app } = testApp();
    expect((await send(app, "POST", "/signup", signup())).status).toBe(200);
  });
});
