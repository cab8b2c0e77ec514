import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * A real MCP client (the Model Context Protocol SDK's `auth()`, its OAuth 2.1 client) against authsvc:
 * it finds authsvc through an MCP server's protected-resource metadata, registers itself, runs the
 * code flow with PKCE and `resource`, and refreshes; the user's consent is given through auth-js.
 */
let ns: FreshNamespace;
let authsvc: ServerProcess & { issuer: string };
let mcp: Server;
let mcpUrl: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-mcp-"));
const REDIRECT = "http://127.0.0.1:8124/callback";

/** An MCP server's front door: its protected-resource metadata (RFC 9728) and a tool that needs a token. */
async function startMcpServer(issuer: string): Promise<void> {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  mcp = createServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.url?.startsWith("/.well-known/oauth-protected-resource")) {
      return send(200, { resource: `${mcpUrl}/mcp`, authorization_servers: [issuer] });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer) return send(401, { error: "unauthorized" }, { "www-authenticate": "Bearer" });
    try {
      // The audience check the MCP authorization spec requires: a token for another resource is refused.
      const { payload } = await jwtVerify(bearer, jwks, {
        issuer,
        audience: `${mcpUrl}/mcp`,
        algorithms: ["RS256"],
      });
      return send(200, { sub: payload.sub, client_id: payload.client_id, scope: payload.scope });
    } catch {
      return send(401, { error: "invalid_token" });
    }
  });
  await new Promise<void>((resolve) => mcp.listen(0, "127.0.0.1", resolve));
  mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}`;
}

/** What an MCP client keeps: its registration, tokens and PKCE verifier, and where it sent the user. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP agent",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "mcp-state-1";
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

beforeAll(async () => {
  ns = await migratedNamespace();
  authsvc = await startOAuthServer(ns, cwd);
  await startMcpServer(authsvc.issuer);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => mcp?.close(resolve));
  await authsvc?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("an MCP client (the MCP SDK's auth()) with authsvc as its authorization server", () => {
  it("discovers, registers, completes the code flow with the user's consent, calls the tool and refreshes", async () => {
    const provider = new MemoryProvider();
    const serverUrl = `${mcpUrl}/mcp`;
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    // Registered dynamically, as a public client.
    const clientId = provider.client?.client_id as string;
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    const authorizationUrl = provider.authorizationUrl as URL;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      `${authsvc.issuer}/oauth/authorize`,
    );
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(serverUrl);

    // The browser: authsvc sends it to the consent page, where the user approves.
    const started = await fetch(authorizationUrl, { redirect: "manual" });
    expect(started.status).toBe(302);
    const consent = new URL(started.headers.get("location") as string);
    const authorizationId = consent.searchParams.get("authorization_id") as string;
    const who = await signedInUser(authsvc.url);
    const details = await who.client.oauth.getAuthorizationDetails(authorizationId);
    expect(details.data).toMatchObject({ client: { id: clientId, name: "MCP agent" } });
    const approved = await who.client.oauth.approveAuthorization(authorizationId, {
      skipBrowserRedirect: true,
    });
    const landing = new URL((approved.data as { redirect_url: string }).redirect_url);
    expect(landing.searchParams.get("state")).toBe("mcp-state-1");

    const code = landing.searchParams.get("code") as string;
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
    const first = provider.saved as OAuthTokens;
    expect(first.refresh_token).toBeDefined();

    // The MCP server accepts the token and sees which agent acts for whom.
    const tool = await fetch(serverUrl, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(tool.status).toBe(200);
    expect(await tool.json()).toEqual({ sub: who.user.id, client_id: clientId, scope: "email" });
    // The resource (RFC 8707) is the token's audience, beside the first-party one.
    expect(decodeJwt(first.access_token).aud).toEqual(["authenticated", serverUrl]);

    // With its refresh token, the client renews its tokens without the user.
    provider.saved = { ...first, access_token: "expired" };
    expect(await auth(provider, { serverUrl })).toBe("AUTHORIZED");
    expect(provider.saved?.refresh_token).toBeDefined();
    expect(provider.saved?.refresh_token).not.toBe(first.refresh_token);
    const again = await fetch(serverUrl, {
      headers: { authorization: `Bearer ${provider.saved?.access_token}` },
    });
    expect(again.status).toBe(200);
    expect(decodeJwt(provider.saved?.access_token as string).aud).toEqual(["authenticated", serverUrl]);
  });

  it("asks the user again when an approved client names another resource, and shows it", async () => {
    const registered = await fetch(`${authsvc.issuer}/oauth/clients/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const who = await signedInUser(authsvc.url);
    /** What the consent API answers the user for a new request of the client. */
    const opened = async (resource?: string) => {
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        scope: "email",
        code_challenge: "c".repeat(43),
        code_challenge_method: "S256",
        ...(resource ? { resource } : {}),
      });
      const started = await fetch(`${authsvc.issuer}/oauth/authorize?${query}`, { redirect: "manual" });
      const id = new URL(started.headers.get("location") as string).searchParams.get("authorization_id");
      const details = await who.client.oauth.getAuthorizationDetails(id as string);
      return { id: id as string, data: details.data as unknown as Record<string, unknown> };
    };
    // The user approves the client for `email`, with no resource named.
    const first = await opened();
    await who.client.oauth.approveAuthorization(first.id, { skipBrowserRedirect: true });
    expect((await opened()).data).toHaveProperty("redirect_url");
    // The client then names another server: no code without the user, who is shown that server.
    const files = await opened("https://files.example/mcp");
    expect(files.data).not.toHaveProperty("redirect_url");
    expect(files.data).toMatchObject({ scope: "email", resource: "https://files.example/mcp" });
  });
});
