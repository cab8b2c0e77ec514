import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assignment, envFileValue, readEnvFile, withVariable, writeEnvFile } from "./env-file.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe(".env editing", () => {
  it("replaces a variable's line and keeps every other line as it was", () => {
    const text = "# settings\nAUTHSVC_SITE_URL=https://app.example\n\nAUTHSVC_JWT_KEYS='[1]' # old\nLAST=1\n";
    const edited = withVariable(text, "AUTHSVC_JWT_KEYS", '[{"kid":"a b"}]');
    expect(edited).toBe(
      '# settings\nAUTHSVC_SITE_URL=https://app.example\n\nAUTHSVC_JWT_KEYS=\'[{"kid":"a b"}]\'\nLAST=1\n',
    );
    expect(envFileValue(edited, "AUTHSVC_JWT_KEYS")).toBe('[{"kid":"a b"}]');
  });

  it("appends a variable that is not there, and keeps one line when it was assigned twice", () => {
    expect(withVariable("A=1", "B", "2")).toBe("A=1\nB=2\n");
    expect(withVariable("", "B", "2")).toBe("B=2\n");
    expect(withVariable("B=1\nA=1\nexport B=3\n", "B", "4")).toBe("A=1\nB=4\n");
  });

  it("writes what dotenv reads back unchanged, and refuses what it cannot write", () => {
    for (const value of ["plain", "with space", "a#b", '{"json":[1,2]}', "postgres://u:p@h:5432/d?x=1"])
      expect(envFileValue(`${assignment("V", value)}\n`, "V")).toBe(value);
    expect(() => assignment("V", "it's")).toThrow(/single quote/);
    expect(() => assignment("V", "a\nb")).toThrow(/one line/);
  });

  it("writes the file whole, readable by its owner only", () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-env-"));
    dirs.push(dir);
    const path = join(dir, ".env");
    expect(readEnvFile(path)).toBe("");
    writeFileSync(path, "A=1\n", { mode: 0o644 });
    writeEnvFile(path, "A=2\n");
    expect(readFileSync(path, "utf8")).toBe("A=2\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
