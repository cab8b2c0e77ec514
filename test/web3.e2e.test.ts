import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** Web3 sign-in on the built server, through auth-js's `signInWithWeb3`. */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-web3-"));
let ns: FreshNamespace;
let server: ServerProcess;

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startServer(productionServerEnv(ns), { cwd });
});

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

describe("Web3 sign-in with no chain enabled", () => {
  it("is refused with 'Web3 provider is disabled', as auth-js's own suite expects", async () => {
    for (const chain of ["ethereum", "solana"] as const) {
      const { data, error } = await client().signInWithWeb3({
        chain,
        message: "localhost wants you to sign in with your account",
        signature: chain === "ethereum" ? "0x00" : new Uint8Array(64),
      } as Parameters<GoTrueClient["signInWithWeb3"]>[0]);
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 422,
        code: "web3_provider_disabled",
        message: "Web3 provider is disabled",
      });
    }
  });
});
