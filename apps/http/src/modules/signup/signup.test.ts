import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

describe("POST /signup", () => {
  it("creates an unconfirmed user, mails the confirmation and answers the user", async () => {
    const { app, auth } = testApp();
    const res = await send(app, "POST", "/signup?redirect_to=http://localhost:3000/welcome", {
      email: "ann@example.com",
      password: "secret-pw",
      data: { name: "Ann" },
    });
    expect(res.status).toBe(200);
    const user = (await res.json()) as Record<string, unknown>;
    expect(user).toMatchObject({ email: "ann@example.com", user_metadata: { name: "Ann" } });
    expect(user.confirmation_sent_at).toEqual(expect.any(String));
    expect(auth.mailer.sent.map((m) => [m.kind, m.to])).toEqual([["confirmation", "ann@example.com"]]);
  });

  it("with autoconfirm answers a session", async () => {
    const { app } = testApp({}, { signup: { ...testApp().auth.settings.signup, mailerAutoconfirm: true } });
    const res = await send(app, "POST", "/signup", { email: "bo@example.com", password: "secret-pw" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: "bearer", user: { email: "bo@example.com" } });
  });

  it("a field of the wrong type is 400 validation_failed naming it, in both error shapes", async () => {
    const { app } = testApp();
    const body = { email: 5, password: "secret-pw" };
    const legacy = await send(app, "POST", "/signup", body);
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: "validation_failed",
      msg: "Invalid email: expected a string",
    });
    const dated = await send(app, "POST", "/signup", body, NEW_API);
    expect(dated.status).toBe(400);
    expect(await dated.json()).toEqual({
      code: "validation_failed",
      message: "Invalid email: expected a string",
    });
  });

  it("null and empty addresses count as absent: an anonymous sign-up, disabled by default", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/signup", { email: "", phone: null, password: "secret-pw" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 422,
      error_code: "anonymous_provider_disabled",
      msg: "Anonymous sign-ins are disabled",
    });
  });

  it("metadata that is not an object is refused", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/signup", {
      email: "c@example.com",
      password: "pw-123456",
      data: [1],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ msg: "Invalid data: expected an object" });
  });
});
