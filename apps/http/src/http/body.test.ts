import { describe, expect, it } from "vitest";
import { testApp } from "../testing/test-app.js";

/** Inputs the database could not store must be clear 400s, never 500s. */
describe("stored input limits", () => {
  const signup = (app: ReturnType<typeof testApp>["app"], data: unknown) =>
    app.request("/signup", {
      method: "POST",
      body: JSON.stringify({ email: "a@example.com", password: "secret-pw", data }),
    });

  it.each([
    ["a NUL character in a value", { note: "a\u0000b" }],
    ["a NUL character in a key", { "a\u0000": 1 }],
    ["a lone surrogate", { note: "\ud800" }],
    ["nesting deeper than 32 levels", JSON.parse(`${'{"a":'.repeat(40)}1${"}".repeat(40)}`)],
    ["more than 64 KiB of JSON", { blob: "x".repeat(70 * 1024) }],
  ])("sign-up data with %s is 400 validation_failed", async (_, data) => {
    const { app } = testApp();
    const res = await signup(app, data);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400, error_code: "validation_failed" });
  });

  it("ordinary nested metadata with unicode is accepted", async () => {
    const { app } = testApp();
    const res = await signup(app, { name: "Zoë 😀", nested: { list: [1, { deep: true }] } });
    expect(res.status).toBe(200);
  });

  it("an admin role longer than 255 characters is 400", async () => {
    const { app, auth } = testApp();
    const exp = Math.floor(auth.clock.now().getTime() / 1000) + 60;
    const token = await auth.signer.sign({ role: "service_role", exp } as never);
    const res = await app.request("/admin/users", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ email: "b@example.com", role: "r".repeat(300) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: "validation_failed" });
  });

  it("an unexpected fault is a 500 without the fault's words", async () => {
    const { app } = testApp();
    app.get("/pg", () => {
      throw Object.assign(new Error("unsupported Unicode escape sequence: \\u0000 secret-row"), {
        name: "PostgresError",
        code: "XX000",
      });
    });
    const res = await app.request("/pg");
    expect(res.status).toBe(500);
    const body = JSON.stringify(await res.json());
    expect(body).toContain("unexpected_failure");
    expect(body).not.toContain("secret-row");
  });
});
