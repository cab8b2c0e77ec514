import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Expired device requests (RFC 8628 §3.5 `expired_token`), on a server whose codes live 2 seconds:
 * the device's poll is refused, and so is the user code on the verification page, in the words of
 * any wrong code.
 */
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const TTL_S = 2;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-device-expiry-"));
const insecure = { [oauth.allowInsecureRequests]: true } as const;
let server: ServerProcess | undefined;
let base = "";

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer(
    {
      PORT: String(port),
      AUTHSVC_DATA_DIR: join(cwd, "data"),
      AUTHSVC_API_EXTERNAL_URL: base,
      AUTHSVC_JWT_ISSUER: base,
      AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
      AUTHSVC_OAUTH_DEVICE_CODE_TTL: `${TTL_S}s`,
    },
    { cwd },
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("an expired device request", () => {
  it("answers the device expired_token and refuses its user code on the page", async () => {
    const issuer = new URL(base);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    const registered = await fetch(`${base}/oauth/clients/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "CLI",
        redirect_uris: ["http://127.0.0.1/unused"],
        token_endpoint_auth_method: "none",
        grant_types: [DEVICE_GRANT],
      }),
    });
    const client: oauth.Client = {
      client_id: ((await registered.json()) as { client_id: string }).client_id,
      token_endpoint_auth_method: "none",
    };
    const none = oauth.None();
    const device = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, none, { scope: "email" }, insecure),
    );
    expect(device.expires_in).toBe(TTL_S);
    // Past the expiry (a second of margin), by the server's clock.
    await new Promise((resolve) => setTimeout(resolve, (TTL_S + 1) * 1000));
    const polled = await oauth.deviceCodeGrantRequest(as, client, none, device.device_code, insecure);
    expect(polled.status).toBe(400);
    expect(await polled.json()).toEqual({
      error: "expired_token",
      error_description: "Device code has expired",
    });
    const opened = await fetch(`${base}/oauth/device`);
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const typed = await fetch(`${base}/oauth/device`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ user_code: device.user_code, csrf: cookie.split("=")[1] as string }),
    });
    expect(typed.status).toBe(400);
    expect(await typed.text()).toContain("That code is not valid or has expired.");
  });
});
