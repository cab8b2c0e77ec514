import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

describe("/otp, /magiclink, /recover, /resend", () => {
  it("POST /otp with an email mails a magic link and answers {}", async () => {
    const { app, auth } = testApp();
    const res = await send(app, "POST", "/otp", { email: "ann@example.com", create_user: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(auth.mailer.sent.map((m) => m.to)).toEqual(["ann@example.com"]);
  });

  it("POST /otp with a phone texts a code and answers the message id", async () => {
    const { app, auth } = testApp();
    const res = await send(app, "POST", "/otp", { phone: "+15550100" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message_id: "sms-1" });
    // Stored and texted without the "+", as the reference normalises numbers.
    expect(auth.sms.sent.map((m) => m.to)).toEqual(["15550100"]);
  });

  it("POST /otp with both or neither address is 400, in both shapes", async () => {
    const { app } = testApp();
    const both = await send(app, "POST", "/otp", { email: "a@example.com", phone: "+15550100" });
    expect(both.status).toBe(400);
    expect(await both.json()).toEqual({
      code: 400,
      error_code: "validation_failed",
      msg: "Only an email address or phone number should be provided",
    });
    const neither = await send(app, "POST", "/otp", { email: "" }, NEW_API);
    expect(neither.status).toBe(400);
    expect(await neither.json()).toEqual({
      code: "validation_failed",
      message: "An email address or phone number is required",
    });
  });

  it("POST /magiclink without an email is 422", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/magiclink", {});
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ msg: "Password recovery requires an email" });
  });

  it("POST /recover for an unknown address answers {} and sends nothing (no enumeration)", async () => {
    const { app, auth } = testApp();
    const res = await send(app, "POST", "/recover", { email: "nobody@example.com" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(auth.mailer.sent).toEqual([]);
  });

  it("POST /resend with an unknown type is 400 listing the types", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/resend", { type: "postcard", email: "a@example.com" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      msg: "Missing one of these types: signup, email_change, sms, phone_change",
    });
  });

  it("a mistyped flag is 400 naming it", async () => {
    const { app } = testApp();
    const res = await send(app, "POST", "/otp", { email: "a@example.com", create_user: "yes" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ msg: "Invalid create_user: expected true or false" });
  });
});
