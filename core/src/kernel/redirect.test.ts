import { describe, expect, it } from "vitest";
import { globMatch, resolveRedirect } from "./redirect.js";

const SITE = "https://example.com";
const options = {
  siteUrl: SITE,
  allowList: [
    "https://*.example.com/**",
    "http://localhost:3000/*",
    "https://preview-*.vercel.app/**",
    "https://docs.example.org/guide/*",
    "https://shared.example.net/tenant-a/**",
    "com.example.app://callback",
    "myapp://**",
  ],
};
const resolve = (redirectTo: string | undefined) => resolveRedirect(redirectTo, options);

describe("resolveRedirect: allowed targets come back unchanged", () => {
  it.each([
    ["the site itself", "https://example.com"],
    ["a page on the site, with query and fragment", "https://example.com/welcome?from=mail#top"],
    ["the site spelt in capitals (browsers lowercase scheme and host)", "HTTPS://EXAMPLE.COM/Welcome"],
    ["the site with its default port spelt out", "https://example.com:443/welcome"],
    ["a subdomain matched by *.example.com", "https://app.example.com/dashboard"],
    ["a subdomain without a path", "https://app.example.com"],
    ["one path segment under localhost:3000", "http://localhost:3000/callback"],
    ["the root of localhost:3000", "http://localhost:3000/"],
    ["a wildcard inside a host label", "https://preview-abc123.vercel.app/auth/done"],
    ["one segment under a path-scoped entry", "https://docs.example.org/guide/intro"],
    ["anything under a ** path entry", "https://shared.example.net/tenant-a/deep/er?x=1"],
    ["an allow-listed app scheme, exactly", "com.example.app://callback"],
    ["an app scheme under a ** entry", "myapp://auth/callback?state=1"],
  ])("%s: %s", (_, url) => {
    expect(resolve(url)).toBe(url);
  });
});

describe("resolveRedirect: everything else falls back to SITE_URL", () => {
  it.each([
    ["nothing", undefined],
    ["an empty string", ""],
    ["a relative path", "/dashboard"],
    ["a protocol-relative URL", "//evil.com"],
    ["a bare host", "evil.com"],
    ["another site", "https://evil.com/"],
    ["the site's name as a subdomain of another", "https://example.com.evil.com/"],
    ["a host that merely ends like the site", "https://evilexample.com/"],
    ["userinfo naming the site", "https://example.com@evil.com/"],
    ["userinfo on the site itself", "https://user:pass@example.com/"],
    ["the site's name in the fragment", "https://evil.com#@example.com"],
    ["the site's name in the query", "https://evil.com?.example.com/"],
    ["a backslash before userinfo", "https://evil.com\\@example.com/"],
    ["a backslash as path separator", "https://example.com\\.evil.com/"],
    ["backslashes for slashes", "https:\\\\evil.com"],
    ["no slashes after the scheme", "https:evil.com"],
    ["one slash after the scheme", "https:/evil.com"],
    ["three slashes after the scheme", "https:///evil.com"],
    ["a leading space", " https://example.com/"],
    ["a leading tab", "\thttps://example.com/"],
    ["a tab inside the host", "https://exa\tmple.com/"],
    ["a newline in the path", "https://example.com/\nx"],
    ["a space in the path", "https://example.com/a b"],
    ["a NUL", "https://example.com/\u0000"],
    ["a non-ASCII look-alike host", "https://exаmple.com/"],
    ["a percent-encoded dot in the host", "https://evil%2ecom/"],
    ["a percent-encoded slash in the host", "https://evil.com%2f.example.com/"],
    ["a decimal IP address", "https://2130706433/"],
    ["a hex IP address", "https://0x7f.0.0.1/"],
    ["an octal IP address", "https://0177.0.0.1/"],
    ["javascript:", "javascript:alert(document.cookie)"],
    ["JavaScript: in mixed case", "JavaScript:alert(1)//https://example.com"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["file:", "file:///etc/passwd"],
    ["vbscript:", "vbscript:msgbox(1)"],
    ["another scheme on the site's host", "ftp://example.com/"],
    ["http where the site is https", "http://example.com/"],
    ["another port on a non-loopback site", "https://example.com:8443/"],
    ["a port out of range", "https://example.com:99999/"],
    ["a port that is not a number", "https://example.com:443x/"],
    ["two labels where * allows one", "https://a.b.example.com/"],
    ["another port than the entry's", "http://localhost:3001/callback"],
    ["two segments where * allows one", "http://localhost:3000/a/b"],
    ["a dot in a * segment", "https://docs.example.org/guide/intro.html"],
    ["a dot segment out of a path-scoped entry", "https://shared.example.net/tenant-a/../tenant-b/"],
    ["an encoded dot segment", "https://shared.example.net/tenant-a/%2E%2e/tenant-b/"],
    ["an app scheme not allow-listed", "otherapp://callback"],
    ["more than the exact app entry", "com.example.app://callback/extra"],
    ["userinfo under an app scheme", "myapp://user@evil.com/"],
  ])("%s: %j", (_, url) => {
    expect(resolve(url)).toBe(SITE);
  });
});

describe("resolveRedirect: the site and the loopback", () => {
  it("ignores the port on the loopback only, where native apps pick any port", () => {
    const local = { siteUrl: "http://localhost:3000", allowList: [] };
    expect(resolveRedirect("http://localhost:5173/cb", local)).toBe("http://localhost:5173/cb");
    expect(resolveRedirect("https://localhost:5173/cb", local)).toBe("http://localhost:3000");
    expect(resolveRedirect("http://localhost.evil.com:5173/", local)).toBe("http://localhost:3000");
    const ip = { siteUrl: "http://127.0.0.1:3000", allowList: [] };
    expect(resolveRedirect("http://127.0.0.1:4000/", ip)).toBe("http://127.0.0.1:4000/");
    expect(resolveRedirect("http://127.0.0.2:4000/", ip)).toBe("http://127.0.0.1:3000");
    const v6 = { siteUrl: "http://[::1]:3000", allowList: [] };
    expect(resolveRedirect("http://[::1]:8080/x", v6)).toBe("http://[::1]:8080/x");
  });

  it("compares with SITE_URL's host whatever SITE_URL's path", () => {
    const site = { siteUrl: "https://example.com/app/", allowList: [] };
    expect(resolveRedirect("https://example.com/other", site)).toBe("https://example.com/other");
  });

  it("still honours the allow list when SITE_URL itself does not parse", () => {
    const broken = { siteUrl: "not a url", allowList: ["https://ok.example/**"] };
    expect(resolveRedirect("https://ok.example/x", broken)).toBe("https://ok.example/x");
    expect(resolveRedirect("https://evil.com/", broken)).toBe("not a url");
  });
});

describe("resolveRedirect: allow-list entries", () => {
  it("never lets a wildcard reach from the path into the host", () => {
    const wide = { siteUrl: SITE, allowList: ["https://**.example.com/**"] };
    expect(resolveRedirect("https://a.b.example.com/x", wide)).toBe("https://a.b.example.com/x");
    expect(resolveRedirect("https://evil.com/x.example.com/", wide)).toBe(SITE);
    expect(resolveRedirect("https://evil.com?x.example.com/", wide)).toBe(SITE);
  });

  it("never allows a dangerous scheme, even listed", () => {
    const reckless = { siteUrl: SITE, allowList: ["javascript:**", "data:**", "file:**"] };
    for (const url of ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd"])
      expect(resolveRedirect(url, reckless)).toBe(SITE);
  });

  it("ignores surrounding spaces, empty entries, the case of scheme and host, and default ports", () => {
    const list = { siteUrl: SITE, allowList: ["", "  HTTPS://App.Example.ORG:443/cb  "] };
    expect(resolveRedirect("https://app.example.org/cb", list)).toBe("https://app.example.org/cb");
    expect(resolveRedirect("https://app.example.org/CB", list)).toBe(SITE);
  });

  it("matches a scheme-and-host entry only without a path, as the reference's globs do", () => {
    const bare = { siteUrl: SITE, allowList: ["https://app.example.org"] };
    expect(resolveRedirect("https://app.example.org/", bare)).toBe("https://app.example.org/");
    expect(resolveRedirect("https://app.example.org/deep", bare)).toBe(SITE);
  });

  it("lets the port be a wildcard", () => {
    const ports = { siteUrl: SITE, allowList: ["http://localhost:*/**"] };
    expect(resolveRedirect("http://localhost:8080/cb", ports)).toBe("http://localhost:8080/cb");
    expect(resolveRedirect("http://localhost.evil.com:8080/cb", ports)).toBe(SITE);
  });
});

describe("globMatch", () => {
  it("matches * within a label or segment and ** across", () => {
    expect(globMatch("*.example.com", "app.example.com")).toBe(true);
    expect(globMatch("*.example.com", "a.b.example.com")).toBe(false);
    expect(globMatch("/a/*", "/a/")).toBe(true);
    expect(globMatch("/a/*", "/a/b/c")).toBe(false);
    expect(globMatch("/a/**", "/a/b/c.d")).toBe(true);
    expect(globMatch("/a", "/a/")).toBe(false);
    expect(globMatch("", "")).toBe(true);
  });

  it("stays fast on patterns with many stars against long text", () => {
    const text = "a".repeat(4000);
    expect(globMatch("**a**a**a**a**a**a**a**a**b", text)).toBe(false);
    expect(globMatch("*a*a*a*a*a*a*a*a*b", text)).toBe(false);
  });
});
