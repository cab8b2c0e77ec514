import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * The official auth-js suite's OAuth admin tests (`describe('OAuth Admin')` of
 * packages/core/auth-js/test/GoTrueApi.test.ts, supabase/supabase-js 381bded5), assertions unchanged,
 * against the built server. They live here because the suite that `npm run suite:auth-js` runs
 * (auth-js 25c6b42) predates them, and their harness (the Supabase CLI) is not authsvc's. Only the
 * fixtures differ: faker's random names and URLs are drawn from node:crypto, and the admin key
 * carries an `exp` (docs/compatibility.md).
 */
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let serviceRoleApiClient: GoTrueAdminApi;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-authjs-oauth-admin-"));

const alphanumeric = (n: number) => randomBytes(n).toString("hex").slice(0, n);
const mockOAuthClientParams = () => ({
  client_name: `Test OAuth Client ${alphanumeric(8)}`,
  redirect_uris: [
    `https://${alphanumeric(10)}.example.com/callback`,
    `https://example.com/callback/${alphanumeric(8)}`,
  ],
  grant_types: ["authorization_code" as const, "refresh_token" as const],
  response_types: ["code" as const],
});
const mockOAuthUpdateParams = () => ({
  client_name: `Updated OAuth Client ${alphanumeric(8)}`,
  logo_uri: `https://picsum.photos/seed/${alphanumeric(6)}/640/480`,
});

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
  const key = await roleKey("service_role");
  serviceRoleApiClient = new GoTrueAdminApi({
    url: server.url,
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("OAuth Admin", () => {
  describe("Core Lifecycle", () => {
    test("oauth client lifecycle: create, get, update, delete", async () => {
      const createParams = mockOAuthClientParams();
      const { data: createData, error: createError } =
        await serviceRoleApiClient.oauth.createClient(createParams);
      expect(createError).toBeNull();
      expect(createData).not.toBeNull();
      expect(createData?.client_id).toBeDefined();
      expect(createData?.client_secret).toBeDefined();
      expect(createData?.client_name).toBe(createParams.client_name);
      const clientId = createData?.client_id as string;

      const { data: getData, error: getError } = await serviceRoleApiClient.oauth.getClient(clientId);
      expect(getError).toBeNull();
      expect(getData).not.toBeNull();
      expect(getData?.client_id).toBe(clientId);
      expect((getData as { client_secret?: string } | null)?.client_secret).toBeUndefined();

      const updateParams = mockOAuthUpdateParams();
      const { data: updateData, error: updateError } = await serviceRoleApiClient.oauth.updateClient(
        clientId,
        updateParams,
      );
      expect(updateError).toBeNull();
      expect(updateData).not.toBeNull();
      expect(updateData?.client_id).toBe(clientId);
      expect(updateData?.client_name).toBe(updateParams.client_name);
      expect(updateData?.logo_uri).toBe(updateParams.logo_uri);

      const { error: deleteError } = await serviceRoleApiClient.oauth.deleteClient(clientId);
      expect(deleteError).toBeNull();

      const { data: deletedData, error: deletedError } = await serviceRoleApiClient.oauth.getClient(clientId);
      expect(deletedData).toBeNull();
      expect(deletedError).not.toBeNull();
    });
  });

  describe("Listing & Secret Regeneration", () => {
    let testClientIds: string[] = [];
    afterEach(async () => {
      for (const clientId of testClientIds) await serviceRoleApiClient.oauth.deleteClient(clientId);
      testClientIds = [];
    });

    test("listClients() returns registered OAuth clients with pagination", async () => {
      for (let i = 0; i < 3; i++) {
        const { data, error } = await serviceRoleApiClient.oauth.createClient(mockOAuthClientParams());
        expect(error).toBeNull();
        if (data?.client_id) testClientIds.push(data.client_id);
      }
      expect(testClientIds.length).toBe(3);

      const { data: allData, error: allError } = await serviceRoleApiClient.oauth.listClients();
      expect(allError).toBeNull();
      expect(allData).not.toBeNull();
      expect(Array.isArray(allData.clients)).toBe(true);
      expect(allData.clients.length).toBeGreaterThanOrEqual(3);
      const clientIds = allData.clients.map((client) => client.client_id);
      for (const testId of testClientIds) expect(clientIds).toContain(testId);

      const { data: pageData, error: pageError } = await serviceRoleApiClient.oauth.listClients({
        page: 1,
        perPage: 2,
      });
      expect(pageError).toBeNull();
      expect(pageData).not.toBeNull();
      expect(Array.isArray(pageData.clients)).toBe(true);
      expect(pageData.clients.length).toBeGreaterThan(0);
    });

    test("regenerateClientSecret() generates new secret", async () => {
      const { data: createData, error: createError } = await serviceRoleApiClient.oauth.createClient(
        mockOAuthClientParams(),
      );
      expect(createError).toBeNull();
      expect(createData).not.toBeNull();
      const clientId = createData?.client_id as string;
      const originalSecret = createData?.client_secret;
      testClientIds.push(clientId);

      const { data: regenData, error: regenError } =
        await serviceRoleApiClient.oauth.regenerateClientSecret(clientId);
      expect(regenError).toBeNull();
      expect(regenData).not.toBeNull();
      expect(regenData?.client_secret).toBeDefined();
      expect(regenData?.client_secret).not.toBe(originalSecret);
    });
  });

  describe("Error Handling", () => {
    test("createClient() returns AuthError with invalid redirect_uris", async () => {
      const { data, error } = await serviceRoleApiClient.oauth.createClient({
        client_name: "Invalid Client",
        redirect_uris: [],
      });
      expect(data).toBeNull();
      expect(error).not.toBeNull();
      expect(error?.message).toMatch(/redirect_uris|required|invalid/i);
    });

    test("getClient() returns AuthError for non-existent client", async () => {
      const { data, error } = await serviceRoleApiClient.oauth.getClient(
        "00000000-0000-0000-0000-000000000000",
      );
      expect(data).toBeNull();
      expect(error).not.toBeNull();
    });
  });

  describe("Edge Cases", () => {
    let testClientIds: string[] = [];
    afterEach(async () => {
      for (const clientId of testClientIds) await serviceRoleApiClient.oauth.deleteClient(clientId);
      testClientIds = [];
    });

    test("updateClient() accepts partial updates", async () => {
      const createParams = mockOAuthClientParams();
      const { data: createData, error: createError } =
        await serviceRoleApiClient.oauth.createClient(createParams);
      expect(createError).toBeNull();
      expect(createData).not.toBeNull();
      const clientId = createData?.client_id as string;
      testClientIds.push(clientId);

      const newLogoUri = "https://example.com/new-logo.png";
      const { data: updateData, error: updateError } = await serviceRoleApiClient.oauth.updateClient(
        clientId,
        { logo_uri: newLogoUri },
      );
      expect(updateError).toBeNull();
      expect(updateData?.logo_uri).toBe(newLogoUri);
      expect(updateData?.client_name).toBe(createParams.client_name);
    });

    test("createClient() works with minimal required fields", async () => {
      const { data, error } = await serviceRoleApiClient.oauth.createClient({
        client_name: "Minimal Test Client",
        redirect_uris: ["https://example.com/callback"],
      });
      expect(error).toBeNull();
      expect(data).not.toBeNull();
      expect(data?.client_id).toBeDefined();
      if (data?.client_id) testClientIds.push(data.client_id);
      expect(data?.grant_types).toBeDefined();
      expect(data?.response_types).toBeDefined();
    });

    test("createClient() accepts multiple redirect_uris", async () => {
      const params = {
        client_name: "Multi URI Client",
        redirect_uris: [
          "https://example.com/callback",
          "http://localhost:3000/callback",
          "https://app.example.com/auth",
        ],
      };
      const { data, error } = await serviceRoleApiClient.oauth.createClient(params);
      expect(error).toBeNull();
      expect(data).not.toBeNull();
      expect(data?.redirect_uris).toEqual(params.redirect_uris);
      if (data?.client_id) testClientIds.push(data.client_id);
    });
  });
});
