import { describe, expect, it } from "vitest";
import { redirectUriProblem } from "./client.js";

describe("redirectUriProblem: what browsers read is what was checked", () => {
  it.each([
    // Browsers read `\` as `/`: this is evil.test's /@localhost/cb, with the code in its query.
    "http://evil.test\\@localhost/cb",
    "https://app.example\\@evil.test/cb",
    "https://app.example/cb\\..\\x",
    // Userinfo, encoded or numeric hosts, control characters: each read otherwise by someone.
    "http://localhost@evil.test/cb",
    "http://evil.test%2f@localhost/cb",
    "http://2130706433/cb",
    "http://0x7f.1/cb",
    "https://app.example/c\tb",
    "https:///evil.test/cb",
  ])("refuses %s", (uri) => {
    expect(redirectUriProblem(uri)).not.toBeNull();
  });

  it.each([
    "ftp://files.example/cb",
    "ws://localhost/cb",
    "wss://app.example/cb",
    "FILE://host/etc/passwd",
    "javascript://x/%0aalert(1)",
    "mailto://someone@example.com",
    "view-source://app.example/cb",
  ])("refuses a scheme that is neither https, loopback http nor a native app's own: %s", (uri) => {
    expect(redirectUriProblem(uri)).toMatch(/scheme '[a-z-]+' is not allowed/);
  });

  it.each([
    "https://app.example/cb?x=1",
    "http://localhost:3000/cb",
    "http://127.0.0.1:53211/callback",
    "http://[::1]:8080/cb",
    "myapp://callback",
    "com.example.app://oauth/cb",
    "cursor://anysphere.cursor-retrieval/oauth/callback",
  ])("accepts %s, whose host WHATWG's URL reads alike", (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
    const url = new URL(uri);
    if (url.protocol === "http:") expect(["localhost", "127.0.0.1", "[::1]"]).toContain(url.hostname);
  });
});
