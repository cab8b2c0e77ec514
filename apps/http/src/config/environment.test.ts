import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, invalidLines, readEnvironment } from "./environment.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "authsvc-config-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const writeDotenv = (text: string) => writeFileSync(join(dir, ".env"), text);

describe("readEnvironment", () => {
  it("reads the .env file of the given folder", () => {
    writeDotenv(
      'AUTHSVC_SITE_URL=https://app.example.com\n# a comment\n\nexport AUTHSVC_JWT_AUD="my app" # why\n',
    );
    expect(readEnvironment(dir, {})).toEqual({
      AUTHSVC_SITE_URL: "https://app.example.com",
      AUTHSVC_JWT_AUD: "my app",
    });
  });

  it("lets the environment win over the file", () => {
    writeDotenv("AUTHSVC_API_PORT=9000\nAUTHSVC_LOG_LEVEL=debug\n");
    const vars = readEnvironment(dir, { AUTHSVC_API_PORT: "9999", HOME: "/home/me", UNSET: undefined });
    expect(vars).toEqual({ AUTHSVC_API_PORT: "9999", AUTHSVC_LOG_LEVEL: "debug", HOME: "/home/me" });
  });

  it("lets an empty environment value override the file, like any other value", () => {
    writeDotenv("AUTHSVC_SMTP_HOST=mail.example.com\n");
    expect(readEnvironment(dir, { AUTHSVC_SMTP_HOST: "" })).toEqual({ AUTHSVC_SMTP_HOST: "" });
  });

  it("is fine without a .env file", () => {
    expect(readEnvironment(dir, { PORT: "8080" })).toEqual({ PORT: "8080" });
  });

  it("refuses a .env with lines that are not assignments, naming the lines but not their contents", () => {
    writeDotenv(
      "AUTHSVC_SITE_URL=https://app.example.com\nAUTHSVC_JWT_SECRET hunter2hunter2hunter2\n\nfoo\n",
    );
    const read = () => readEnvironment(dir, {});
    expect(read).toThrow(ConfigFileError);
    expect(read).toThrow(`${join(dir, ".env")}: line 2, 4 is not a KEY=value assignment or a # comment`);
    expect(read).not.toThrow(/hunter2/);
  });

  it("refuses a .env that cannot be read", () => {
    mkdirSync(join(dir, ".env"));
    expect(() => readEnvironment(dir, {})).toThrow(/\.env: cannot be read \(EISDIR\)/);
  });
});

describe("invalidLines", () => {
  it("accepts quoted multi-line values, comments, blanks and CRLF endings", () => {
    expect(invalidLines("A=1\r\nB=\"line one\nline two\"\n  # note\n\nC='x' # trailing\n")).toEqual([]);
  });

  it("reports each stray line by number", () => {
    expect(invalidLines("A=1\nnot an assignment\nB=2\n}")).toEqual([2, 4]);
  });
});
