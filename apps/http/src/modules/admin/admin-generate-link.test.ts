import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

describe("POST /admin/generate_link", () => {
  it("answers the user and the link of a sign-up, without sending mail", async () => {
    const { app, auth } = testApp();
    const headers = await bearer(auth, { role: "service_role" });
    const res = await send(
      app,
      "POST",
      "/admin/generate_link",
      {
        type: "signup",
        email: "ann@example.com",
        password: "secret-pw",
        redirectTo: "http://localhost:3000/in",
      },
      headers,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      email: "ann@example.com",
      verification_type: "signup",
      redirect_to: "http://localhost:3000/in",
      email_otp: expect.any(String),
      hashed_token: expect.any(String),
    });
    expect(String(body.action_link)).toMatch(/^http:\/\/localhost:9999\/verify\?token=/);
    expect(auth.mailer.sent).toEqual([]);
  });

  it("an unknown type is 400, in both shapes", async () => {
    const { app, auth } = testApp();
    const headers = { ...(await bearer(auth, { role: "service_role" })), ...NEW_API };
    const res = await send(
      app,
      "POST",
      "/admin/generate_link",
      { type: "postcard", email: "a@example.com" },
      headers,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "validation_failed", message: expect.any(String) });
  });

  it("needs an admin token", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/admin/generate_link", { type: "signup", email: "a@example.com" });
    expect(res.status).toBe(401);
  });
});
