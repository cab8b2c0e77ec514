import { describe, expect, it } from "vitest";
import { testApp } from "../../testing/test-app.js";

describe("GET /health", () => {
  it("GET /health answers the version, name and description", async () => {
    const res = await testApp().app.request("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      version: "0.0.0-test",
      name: "authsvc",
      description: "authsvc is a user registration and authentication API",
    });
  });
});
