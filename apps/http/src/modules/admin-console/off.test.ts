import { describe, expect, it } from "vitest";
import { freshConfig, testApp } from "../../testing/test-app.js";

describe("the admin console switched off", () => {
  it("answers each of its paths with its not-found page, as its description says, and serves nothing", async () => {
    const config = freshConfig();
    const { app } = testApp({
      config: { ...config, adminConsole: { ...config.adminConsole, enabled: false } },
    });
    for (const [method, path] of [
      ["GET", "/admin/console"],
      ["GET", "/admin/console/sign-in"],
      ["POST", "/admin/console/sign-in"],
      ["GET", "/admin/console/users"],
      ["GET", "/admin/console/console.css"],
    ] as const) {
      const answer = await app.request(path, { method });
      expect([method, path, answer.status, answer.headers.get("content-type")]).toEqual([
        method,
        path,
        404,
        "text/html; charset=UTF-8",
      ]);
      const text = await answer.text();
      expect(text).toContain("The admin console is off");
      expect(text).not.toContain("<form");
    }
    // On, the same path serves the sign-in form.
    const on = testApp();
    expect((await on.app.request("/admin/console/sign-in")).status).toBe(200);
  });
});
