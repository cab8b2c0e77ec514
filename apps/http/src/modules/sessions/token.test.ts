import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app with one confirmed user, signed up through the API. */
async function withUser() {
  const t = testApp({}, { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } });
  await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  return t;
}

describe("POST /token", () => {
  it("grant_type=password answers a session", async () => {
    const { app } = await withUser();
    const res = await send(app, "POST", "/token?grant_type=password", {
      email: "ann@example.com",
      password: "secret-pw",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      token_type: "bearer",
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      user: { email: "ann@example.com" },
    });
  });

  it("a wrong password is 400 invalid_credentials in both shapes", async () => {
    const { app } = await withUser();
    const body = { email: "ann@example.com", password: "wrong-pw" };
    const legacy = await send(app, "POST", "/token?grant_type=password", body);
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toMatchObject({ code: 400, error_code: "invalid_credentials" });
    const dated = await send(app, "POST", "/token?grant_type=password", body, NEW_API);
    expect(dated.status).toBe(400);
    expect(await dated.json()).toMatchObject({ code: "invalid_credentials", message: expect.any(String) });
  });

  it("grant_type=refresh_token rotates the refresh token", async () => {
    const { app } = await withUser();
    const signIn = await send(app, "POST", "/token?grant_type=password", {
      email: "ann@example.com",
      password: "secret-pw",
    });
    const { refresh_token } = (await signIn.json()) as { refresh_token: string };
    const res = await send(app, "POST", "/token?grant_type=refresh_token", { refresh_token });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { refresh_token: string };
    expect(session.refresh_token).not.toBe(refresh_token);
  });

  it("a missing refresh token is the reference's OAuth-style 400", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/token?grant_type=refresh_token", { refresh_token: "" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "invalid_request",
      error_description: "refresh_token required",
    });
  });

  it("an unknown grant type is 400, and a mistyped field names the field", async () => {
    const { app } = testApp();
    const unknown = await send(app, "POST", "/token?grant_type=magic", {});
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error_code: "invalid_credentials",
      msg: "unsupported_grant_type",
    });
    // The grants are looked up by name: an object member's name, or no name at all, is no grant.
    for (const query of ["?grant_type=constructor", "?grant_type=__proto__", "?grant_type=", ""]) {
      const res = await send(app, "POST", `/token${query}`, {});
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ msg: "unsupported_grant_type" });
    }
    const typed = await send(app, "POST", "/token?grant_type=password", { email: "a@b.c", password: 12 });
    expect(await typed.json()).toMatchObject({ msg: "Invalid password: expected a string" });
  });
});
