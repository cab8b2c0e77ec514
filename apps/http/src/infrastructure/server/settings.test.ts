import { PROVIDER_DEFINITIONS } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { defaultSettings, testApp } from "../../testing/test-app.js";

describe("GET /settings", () => {
  it("GET /settings lists every defined provider plus email, phone and anonymous users", async () => {
    const res = await testApp().app.request("/settings");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      external: Record<string, boolean>;
      disable_signup: boolean;
      autoconfirm: boolean;
    };
    expect(Object.keys(body.external).sort()).toEqual(
      ["anonymous_users", "email", "phone", ...Object.keys(PROVIDER_DEFINITIONS)].sort(),
    );
    expect(body.external.email).toBe(true);
    expect(body.disable_signup).toBe(false);
    expect(body.autoconfirm).toBe(false);
  });

  it("answers the settings it was built with, as JSON", async () => {
    const settings = { ...defaultSettings(), disable_signup: true, sms_provider: "twilio" };
    const res = await testApp({ settings }).app.request("/settings");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toMatchObject({ disable_signup: true, sms_provider: "twilio" });
  });
});
