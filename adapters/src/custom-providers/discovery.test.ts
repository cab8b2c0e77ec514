import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "../net/guarded-fetch.js";
import { discoverOidc } from "./discovery.js";

let server: Server;
let base: string;
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const issuer = `${base}${req.url?.replace(/\/\.well-known\/openid-configuration$/, "")}`;
    const doc = { issuer, authorization_endpoint: "a", token_endpoint: "t", jwks_uri: "j" };
    switch (req.url?.split("/")[1]) {
      case "silent":
        hanging.push(res);
        return;
      case "trickle":
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{");
        hanging.push(res);
        return;
      case "moved":
        res.writeHead(302, { location: `${base}/good/.well-known/openid-configuration` }).end();
        return;
      case "text":
        res.end("<html>");
        return;
      case "partial":
        res.end(JSON.stringify({ issuer, authorization_endpoint: "a" }));
        return;
      default:
        res.end(JSON.stringify(doc));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // undici loads on the first call: not part of the short budgets below.
  await (await fetch(`${base}/warm`)).text();
});
afterAll(() => {
  for (const res of hanging) res.destroy();
  return new Promise((resolve) => server.close(resolve));
});

const fetch = guardedFetch({ allowLoopbackForTests: true });
const discover = (path: string, issuer = `${base}/${path}`) =>
  discoverOidc(fetch, `${base}/${path}/.well-known/openid-configuration`, issuer, 300);

describe("discoverOidc", () => {
  it("takes a document whose issuer is exactly the one given", async () => {
    const found = await discover("good");
    expect(found, JSON.stringify(found)).toMatchObject({
      ok: true,
      value: { issuer: `${base}/good`, jwks_uri: "j" },
    });
    expect(await discover("good", `${base}/good/`)).toMatchObject({ ok: false, error: /issuer mismatch/ });
  });

  it("gives up on a server that does not answer, or answers too slowly", async () => {
    expect(await discover("silent")).toEqual({ ok: false, error: "no answer within 300 ms" });
    expect(await discover("trickle")).toEqual({ ok: false, error: "no answer within 300 ms" });
  });

  it("refuses redirects, answers that are not JSON, and documents without the endpoints", async () => {
    expect(await discover("moved")).toMatchObject({ ok: false, error: expect.stringMatching(/redirect/) });
    expect(await discover("text")).toEqual({ ok: false, error: "the answer is not JSON" });
    expect(await discover("partial")).toEqual({
      ok: false,
      error: "the document is missing required fields: token_endpoint, jwks_uri",
    });
  });
});
