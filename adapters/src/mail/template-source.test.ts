import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTemplateServer } from "../testing/mail/template-server.js";
import { renderTemplate } from "./go-template.js";
import { templateSource } from "./template-source.js";

let server: Awaited<ReturnType<typeof startTemplateServer>>;

beforeAll(async () => {
  server = await startTemplateServer({
    "/good": { status: 200, body: "<p>Hi {{ .Email }}</p>" },
    "/cached": { status: 200, body: "<p>cached</p>" },
    "/expiring": { status: 200, body: "<p>expiring</p>" },
    "/flaky": { status: 503, body: "later" },
    "/hang": { hang: true },
    "/bad-syntax": { status: 200, body: "<p>{{ range .Data }}x{{ end }}</p>" },
    "/moved": { redirect: "/good" },
  });
});
afterAll(() => server?.close());

function warnings() {
  const lines: { fields: Record<string, unknown>; msg: string }[] = [];
  return { lines, warn: (fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg }) };
}

describe("templateSource", () => {
  it("fetches and parses a template", async () => {
    const { warn, lines } = warnings();
    const template = await templateSource({ warn }).get(server.url("/good"));
    expect(template && renderTemplate(template, { Email: "ann@example.com" }, { html: true })).toBe(
      "<p>Hi ann@example.com</p>",
    );
    expect(lines).toEqual([]);
  });

  it("fetches a URL once for many mails, concurrent or not, while the cache is fresh", async () => {
    const source = templateSource({ warn: () => {} });
    await Promise.all([1, 2, 3].map(() => source.get(server.url("/cached"))));
    await source.get(server.url("/cached"));
    expect(server.hits("/cached")).toBe(1);
  });

  it("fetches again once the cached copy is older than ttlMs", async () => {
    let now = 1_000;
    const source = templateSource({ warn: () => {}, ttlMs: 60_000, now: () => now });
    await source.get(server.url("/expiring"));
    now += 59_000;
    await source.get(server.url("/expiring"));
    expect(server.hits("/expiring")).toBe(1);
    now += 2_000;
    await source.get(server.url("/expiring"));
    expect(server.hits("/expiring")).toBe(2);
  });

  it("answers undefined on a non-2xx with one warning, and remembers the failure for failureTtlMs", async () => {
    let now = 1_000;
    const { warn, lines } = warnings();
    const source = templateSource({ warn, failureTtlMs: 30_000, now: () => now });
    expect(await source.get(server.url("/flaky?sig=s3cret-signature"))).toBeUndefined();
    expect(await source.get(server.url("/flaky?sig=s3cret-signature"))).toBeUndefined();
    expect(server.hits("/flaky")).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toEqual({ template_url: server.url("/flaky"), status: 503 });
    expect(JSON.stringify(lines)).not.toContain("s3cret");
    now += 31_000;
    await source.get(server.url("/flaky?sig=s3cret-signature"));
    expect(server.hits("/flaky")).toBe(2);
    expect(lines).toHaveLength(2);
  });

  it("gives up on a server that does not answer within timeoutMs", async () => {
    const { warn, lines } = warnings();
    const started = Date.now();
    expect(await templateSource({ warn, timeoutMs: 150 }).get(server.url("/hang"))).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(/default template/);
  });

  it("refuses a template in syntax it cannot render, with a warning", async () => {
    const { warn, lines } = warnings();
    expect(await templateSource({ warn }).get(server.url("/bad-syntax"))).toBeUndefined();
    expect(lines[0]?.fields).toMatchObject({ error: { type: "TemplateSyntaxError" } });
  });

  it("warns when nothing listens at the URL", async () => {
    const { warn, lines } = warnings();
    const dead = await startTemplateServer({});
    const url = dead.url("/gone");
    await dead.close();
    expect(await templateSource({ warn }).get(url)).toBeUndefined();
    expect(lines).toHaveLength(1);
  });

  it("follows a redirect", async () => {
    const template = await templateSource({ warn: () => {} }).get(server.url("/moved"));
    expect(template && renderTemplate(template, { Email: "b@example.com" }, { html: false })).toBe(
      "<p>Hi b@example.com</p>",
    );
  });
});
