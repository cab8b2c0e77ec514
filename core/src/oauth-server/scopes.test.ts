import { describe, expect, it } from "vitest";
import { defaultAuthSettings, fakeDeps } from "../testing/index.js";
import { defineScope, deleteScope, listScopes } from "./scopes.js";

describe("custom scopes", () => {
  it("are defined once by name, listed by name and deleted", async () => {
    const deps = fakeDeps();
    const made = await defineScope(deps, {
      scope: "tools:run",
      resource: "https://mcp.example/mcp",
      description: "Run tools",
    });
    expect(made).toMatchObject({
      ok: true,
      value: { scope: "tools:run", resource: "https://mcp.example/mcp" },
    });
    expect(await defineScope(deps, { scope: "tools:run", description: "again" })).toMatchObject({
      ok: false,
      error: { code: "conflict" },
    });
    await defineScope(deps, { scope: "a:b", description: "A" });
    expect((await listScopes(deps)).map((s) => s.scope)).toEqual(["a:b", "tools:run"]);
    expect(await deleteScope(deps, "tools:run")).toEqual({ ok: true, value: undefined });
    expect(await deleteScope(deps, "tools:run")).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it.each([
    [{ scope: "", description: "x" }, /scope must be 1 to 128/],
    [{ scope: "has space", description: "x" }, /scope must be 1 to 128/],
    [{ scope: 'quote"', description: "x" }, /scope must be 1 to 128/],
    [{ scope: "x".repeat(129), description: "x" }, /scope must be 1 to 128/],
    [{ scope: "openid", description: "x" }, /OpenID Connect's/],
    [{ scope: "a:b", description: " " }, /description is required/],
    [{ scope: "a:b", description: "d".repeat(1025) }, /at most 1024/],
    [{ scope: "a:b", description: "x", resource: "mcp" }, /absolute URI/],
    [{ scope: "a:b", description: "x", resource: "https://mcp.example/?q" }, /query/],
  ])("refuses %o", async (input, message) => {
    const result = await defineScope(fakeDeps(), input);
    expect(result).toMatchObject({ ok: false, error: { code: "validation_failed", message } });
  });

  it("refuses a resource outside OAUTH_SERVER_ALLOWED_RESOURCES", async () => {
    const settings = defaultAuthSettings();
    const deps = fakeDeps({
      oauthServer: { ...settings.oauthServer, allowedResources: ["https://mcp.example/**"] },
    });
    expect(
      await defineScope(deps, { scope: "a:b", description: "x", resource: "https://evil.example/mcp" }),
    ).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    expect(
      await defineScope(deps, { scope: "a:b", description: "x", resource: "https://mcp.example/mcp" }),
    ).toMatchObject({ ok: true });
  });
});
