import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";
import { until } from "./support/until.js";

/**
 * A capability's libraries are loaded only where it is on (or at its first use): a server with the
 * default configuration carries neither Web3's nor WebAuthn's nor SAML's code, nor the embedded
 * database, nor the OpenAPI generator before someone asks for the description, nor the pretty log.
 */
const MODULE_LOG_IMPORT = `--import=${fileURLToPath(new URL("./support/module-log.mjs", import.meta.url))}`;
const OPTIONAL = [
  "viem",
  "@noble/curves",
  "@simplewebauthn/server",
  "aaguids",
  "@node-saml/node-saml",
  "@xmldom/xmldom",
  "xml-crypto",
  "@peculiar/x509",
  "@electric-sql/pglite",
  "@valibot/to-json-schema",
  "pino-pretty",
  "@opentelemetry/sdk-node",
  "twilio",
  "nodemailer",
];
const PATTERN = `/node_modules/(${OPTIONAL.join("|")})/`;

let ns: FreshNamespace;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-optional-libraries-"));
const servers: ServerProcess[] = [];

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts a server with `extra`; `loaded()` names the optional packages it has loaded so far. */
async function serverListingLibraries(name: string, extra: Record<string, string>) {
  const moduleLog = join(cwd, `${name}.modules`);
  const server = await startServer(
    productionServerEnv(ns, {
      NODE_OPTIONS: MODULE_LOG_IMPORT,
      TEST_MODULE_LOG: moduleLog,
      TEST_MODULE_LOG_PATTERN: PATTERN,
      ...extra,
    }),
    { cwd },
  );
  servers.push(server);
  const loaded = () => {
    const urls = existsSync(moduleLog) ? readFileSync(moduleLog, "utf8") : "";
    return OPTIONAL.filter((name) => urls.includes(`/node_modules/${name}/`));
  };
  return { server, loaded };
}

describe("optional libraries", () => {
  it("default configuration: none is loaded, through sign-up, sign-in and GET /user", async () => {
    const { server, loaded } = await serverListingLibraries("default", {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
    });
    const signup = await fetch(`${server.url}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "optional-libraries@example.com", password: "a-long-password-1" }),
    });
    expect(signup.status).toBe(200);
    const { access_token } = (await signup.json()) as { access_token: string };
    const user = await fetch(`${server.url}/user`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(user.status).toBe(200);
    expect((await fetch(`${server.url}/settings`)).status).toBe(200);
    expect(loaded()).toEqual([]);
  });

  it("Web3 sign-in and passkeys on: their libraries are loaded at start", async () => {
    const { server, loaded } = await serverListingLibraries("web3-passkeys", {
      AUTHSVC_EXTERNAL_WEB3_ETHEREUM_ENABLED: "true",
      AUTHSVC_EXTERNAL_WEB3_SOLANA_ENABLED: "true",
      AUTHSVC_PASSKEY_ENABLED: "true",
      AUTHSVC_WEBAUTHN_RP_ID: "localhost",
      AUTHSVC_WEBAUTHN_RP_ORIGINS: "http://localhost:3000",
    });
    const settings = (await (await fetch(`${server.url}/settings`)).json()) as Record<string, unknown>;
    expect(settings.passkeys_enabled).toBe(true);
    await until(() => ["viem", "@noble/curves", "@simplewebauthn/server"].every((n) => loaded().includes(n)));
    // Nothing else came with them: SAML, the embedded database and the rest stay out.
    expect(loaded().filter((n) => !["viem", "@noble/curves", "@simplewebauthn/server"].includes(n))).toEqual(
      [],
    );
  });

  it("the OpenAPI generator is loaded at the first request for the description", async () => {
    const { server, loaded } = await serverListingLibraries("openapi", {});
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(loaded()).toEqual([]);
    const answer = await fetch(`${server.url}/openapi.json`);
    expect(answer.status).toBe(200);
    const description = (await answer.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(description.openapi).toMatch(/^3\.1\./);
    expect(description.paths["/user"]).toBeDefined();
    expect(loaded()).toEqual(["@valibot/to-json-schema"]);
  });
});
