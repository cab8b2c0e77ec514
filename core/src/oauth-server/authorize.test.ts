import { describe, expect, it } from "vitest";
import { fakeDeps } from "../testing/index.js";
import { startAuthorization } from "./authorize.js";
import { registerClient } from "./clients.js";

const REDIRECT = "https://app.example/cb";
const VERIFIER = "v".repeat(43);

/** A client registered dynamically (anyone) or by an admin, and a well-formed request of it. */
async function clientOf(registrationType: "dynamic" | "manual") {
  const deps = fakeDeps();
  const registered = await registerClient(deps, {
    registrationType,
    redirectUris: [REDIRECT],
    authMethod: "none",
  });
  if (!registered.ok) throw registered.error;
  const client = registered.value.client;
  const request = {
    clientId: client.id,
    redirectUri: REDIRECT,
    state: "st",
    codeChallenge: "c".repeat(43),
    codeChallengeMethod: "S256",
  };
  return { deps, client, request };
}

const errorOf = (location: string) => new URL(location).searchParams.get("error_description");

describe("startAuthorization", () => {
  it("refuses PKCE plain: S256 only (ASVS 10.4.6)", async () => {
    const { deps, request } = await clientOf("manual");
    const plain = await startAuthorization(deps, {
      ...request,
      codeChallenge: VERIFIER,
      codeChallengeMethod: "plain",
    });
    expect(plain.ok && errorOf(plain.value.location)).toBe("code_challenge_method must be 'S256'");
    const s256 = await startAuthorization(deps, request);
    expect(s256.ok && new URL(s256.value.location).searchParams.get("authorization_id")).toMatch(/^\w{32}$/);
  });

  it("answers a dynamically registered client's errors to the browser, never redirecting to its URI", async () => {
    const { deps, request } = await clientOf("dynamic");
    expect(await startAuthorization(deps, { ...request, codeChallenge: undefined })).toMatchObject({
      ok: false,
      error: {
        code: "invalid_request",
        message: "PKCE is required: code_challenge and code_challenge_method",
      },
    });
    expect(await startAuthorization(deps, { ...request, scope: "admin" })).toMatchObject({
      ok: false,
      error: { code: "invalid_scope", message: "unsupported scope: admin" },
    });
    // A well-formed request still goes to the consent page, where the user decides.
    const good = await startAuthorization(deps, request);
    expect(good.ok && good.value.location).toMatch(
      /^http:\/\/localhost:3000\/oauth\/consent\?authorization_id=/,
    );
  });

  it("redirects an admin-created client's errors to its redirect URI, with the state", async () => {
    const { deps, request } = await clientOf("manual");
    const noPkce = await startAuthorization(deps, { ...request, codeChallenge: undefined });
    expect(noPkce.ok && noPkce.value.location).toBe(
      `${REDIRECT}?error=invalid_request&error_description=${encodeURIComponent("PKCE is required: code_challenge and code_challenge_method")}&state=st&iss=${encodeURIComponent("http://localhost:9999")}`,
    );
  });

  it.each([
    ["state", { state: "s".repeat(4097) }, "state is too long"],
    ["scope", { scope: `${" ".repeat(4093)}email` }, "scope is too long"],
    ["resource", { resource: `https://api.example/${"r".repeat(2030)}` }, "resource must be an absolute URI"],
    ["nonce", { nonce: "n".repeat(256) }, "nonce is too long"],
  ])("bounds what a request stores: %s", async (_name, extra, problem) => {
    const { deps, request } = await clientOf("manual");
    const refused = await startAuthorization(deps, { ...request, ...extra });
    expect(refused.ok && errorOf(refused.value.location)).toBe(problem);
  });

  it("refuses a redirect URI registered before the rules refused it (a backslash, a scheme not allowed)", async () => {
    const { deps, client, request } = await clientOf("manual");
    for (const uri of ["http://evil.test\\@localhost/cb", "ftp://files.example/cb"]) {
      await deps.store.oauthClients.update({ ...client, redirectUris: [uri] });
      expect(await startAuthorization(deps, { ...request, redirectUri: uri }), uri).toMatchObject({
        ok: false,
        error: { code: "validation_failed", message: "invalid redirect_uri" },
      });
    }
  });
});
