import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "../net/guarded-fetch.js";
import { CLIENT_DOCUMENT_MAX_BYTES, clientMetadataDocuments, maxAgeOf } from "./client-metadata-documents.js";

let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const json = (body: string, headers: Record<string, string> = {}) =>
      res.writeHead(200, { "content-type": "application/json", ...headers }).end(body);
    if (req.url === "/doc")
      return json(`{"client_id":"${base}/doc"}`, { "cache-control": "public, max-age=120" });
    if (req.url === "/huge") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"client_name":"');
      for (let i = 0; i < 4; i++) res.write("x".repeat(4096));
      return res.end('"}');
    }
    if (req.url === "/redirect") return res.writeHead(302, { location: `${base}/doc` }).end();
    if (req.url === "/html") return res.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>");
    if (req.url === "/broken") return json("{not json");
    if (req.url === "/slow") return setTimeout(() => json("{}"), 1_000);
    return res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const loopbackFetch = guardedFetch({
  allowLoopbackForTests: true,
  maxAnswerBytes: CLIENT_DOCUMENT_MAX_BYTES,
});
const documents = clientMetadataDocuments(loopbackFetch);
// Used once undici is loaded (the first call loads it), so that only the server's delay counts.
const impatient = clientMetadataDocuments(loopbackFetch, { timeoutMs: 300 });

describe("clientMetadataDocuments", () => {
  it("answers the JSON and its max-age", async () => {
    expect(await documents.fetch(`${base}/doc`)).toEqual({
      ok: true,
      document: { client_id: `${base}/doc` },
      maxAgeSeconds: 120,
    });
  });

  it("refuses a redirect without following it, a large, slow, non-JSON or failing answer", async () => {
    const before = hits;
    expect(await documents.fetch(`${base}/redirect`)).toEqual({
      ok: false,
      problem: "the document's URL answered a redirect (302)",
    });
    expect(hits - before).toBe(1);
    expect(await documents.fetch(`${base}/huge`)).toEqual({
      ok: false,
      problem: `the answer is larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes`,
    });
    expect(await impatient.fetch(`${base}/slow`)).toEqual({
      ok: false,
      problem: "no answer within 0.3 seconds",
    });
    expect(await documents.fetch(`${base}/html`)).toEqual({
      ok: false,
      problem: "the document is not served as application/json",
    });
    expect(await documents.fetch(`${base}/broken`)).toEqual({
      ok: false,
      problem: "the document is not valid JSON",
    });
    expect(await documents.fetch(`${base}/missing`)).toEqual({
      ok: false,
      problem: "the document's URL answered 404",
    });
  });

  it("refuses private, metadata and (without the test switch) loopback addresses before connecting", async () => {
    const strict = clientMetadataDocuments(guardedFetch({ maxAnswerBytes: CLIENT_DOCUMENT_MAX_BYTES }));
    for (const url of [
      "https://10.0.0.1/c.json",
      "https://169.254.169.254/latest/meta-data",
      `${base}/doc`,
    ]) {
      const fetched = await strict.fetch(url);
      expect(fetched.ok, url).toBe(false);
      if (!fetched.ok) expect(fetched.problem, url).toMatch(/not allowed|private|link-local|loopback/);
    }
    const loose = await documents.fetch("https://10.0.0.1/c.json");
    expect(loose).toMatchObject({ ok: false, problem: expect.stringMatching(/private-use/) });
  });

  it("fetches one URL once at a time", async () => {
    const before = hits;
    await Promise.all([documents.fetch(`${base}/doc`), documents.fetch(`${base}/doc`)]);
    expect(hits - before).toBe(1);
  });
});

describe("maxAgeOf", () => {
  it("reads max-age, and no-store or no-cache as 0", () => {
    expect(maxAgeOf(null)).toBeNull();
    expect(maxAgeOf("public")).toBeNull();
    expect(maxAgeOf("public, max-age=600")).toBe(600);
    expect(maxAgeOf("no-store")).toBe(0);
    expect(maxAgeOf("max-age=60, no-cache")).toBe(0);
  });
});
