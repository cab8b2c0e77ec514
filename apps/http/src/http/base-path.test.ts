import { describe, expect, it } from "vitest";
import { testApp } from "../testing/test-app.js";
import { basePathGetter } from "./base-path.js";

const path = (paths: readonly string[], url: string) => basePathGetter(paths)(new Request(url));

describe("basePathGetter", () => {
  it("strips a listed prefix and keeps the root", () => {
    expect(path(["/", "/auth/v1"], "http://h/auth/v1/token?grant_type=password")).toBe("/token");
    expect(path(["/", "/auth/v1"], "http://h/auth/v1")).toBe("/");
    expect(path(["/", "/auth/v1"], "http://h/token")).toBe("/token");
  });

  it("does not strip a prefix that is only the start of a segment", () => {
    expect(path(["/", "/auth/v1"], "http://h/auth/v10/token")).toBe("/auth/v10/token");
  });

  it("serves nothing at the root when `/` is not listed", () => {
    expect(path(["/auth/v1"], "http://h/token")).not.toBe("/token");
    expect(path(["/auth/v1/"], "http://h/auth/v1/user")).toBe("/user");
  });
});

describe("the API under its base paths", () => {
  it("answers the same routes at / and /auth/v1 by default", async () => {
    const { app } = testApp();
    for (const url of ["/health", "/auth/v1/health", "/settings", "/auth/v1/settings"]) {
      expect((await app.request(url)).status, url).toBe(200);
    }
    const signup = await app.request("/auth/v1/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "base@example.com", password: "a-long-password-1" }),
    });
    expect(signup.status).toBe(200);
    expect((await app.request("/auth/v2/settings")).status).toBe(404);
  });

  it("answers 404 at the root when only /auth/v1 is configured", async () => {
    const { app } = testApp({ basePaths: ["/auth/v1"] });
    expect((await app.request("/auth/v1/health")).status).toBe(200);
    const res = await app.request("/health");
    expect(res.status).toBe(404);
    expect(res.headers.get("x-sb-error-code")).toBe("not_found");
  });
});
