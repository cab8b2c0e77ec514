import { failureCodes, failures } from "@authsvc/core";
import { ErrorCodes } from "@authsvc/core/kernel";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../composition/config.js";
import { MODULES } from "../composition/modules.js";
import { variablesOf } from "../config/catalog.js";
import { renderTables } from "../config/docs/render.js";
import * as k from "../config/kinds.js";
import { sectionOf } from "../config/sections/section.js";
import { defineVariables, describe as describeVariable } from "../config/variable.js";
import { routeMethod, routePath } from "../http/endpoint.js";
import { statusTable } from "../http/statuses.js";
import { testApp } from "../testing/test-app.js";
import { endpoint, type HttpModule } from "./module.js";

/** Each route of each module, as `METHOD /path`. */
const routesByModule = () =>
  MODULES.flatMap((module) => [
    ...(module.endpoints ?? []).map(({ operation }) => ({
      module: module.name,
      method: routeMethod(operation),
      path: routePath(operation),
    })),
  ]);

/** Whether one request could match both patterns: same length, each segment equal or a parameter. */
function overlap(a: string, b: string): boolean {
  const as = a.split("/");
  const bs = b.split("/");
  return (
    as.length === bs.length && as.every((s, i) => s === bs[i] || s.startsWith(":") || bs[i]?.startsWith(":"))
  );
}

const helloVariables = {
  greeting: defineVariables("Hello")({
    key: "HELLO_GREETING",
    kind: k.text,
    default: "hello",
    description: "What `GET /hello` would say.",
  }),
};

/** A throwaway capability: one route that fails with a code it owns, and one variable. */
const hello: HttpModule = {
  name: "hello",
  section: sectionOf({
    variables: helloVariables,
    read: (r) => r.getAll(helloVariables),
    settle: (values) => ({ hello: values }),
  }),
  endpoints: [
    endpoint(
      {
        method: "get",
        path: "/hello",
        summary: "Fails.",
        access: "public",
        responses: { 200: { description: "Never." } },
      },
      () => [
        () => {
          throw failures.otpSignupDisabled();
        },
      ],
    ),
  ],
};

describe("the module list", () => {
  it("names each module once", () => {
    const names = MODULES.map((module) => module.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("gives every code a failure answers with exactly one status, and only codes of the vocabulary", () => {
    const { byCode } = statusTable(MODULES);
    for (const code of failureCodes) expect(byCode[code], code).toBeTypeOf("number");
    for (const code of Object.keys(byCode)) expect(ErrorCodes).toContain(code);
  });

  it("refuses a code that two modules give a status, and names it", () => {
    const again: HttpModule = { name: "again", statuses: { weak_password: 400 } };
    expect(() => statusTable([...MODULES, again])).toThrow(/"weak_password".*again/);
  });

  it("refuses a failure that two modules give a status", () => {
    const again: HttpModule = { name: "again", failureStatuses: { updateNeedsAal2: 401 } };
    expect(() => statusTable([...MODULES, again])).toThrow(/"updateNeedsAal2"/);
  });

  it("refuses a list that leaves a code without a status", () => {
    const without = MODULES.map((module) => (module.name === "mfa" ? { ...module, statuses: {} } : module));
    expect(() => statusTable(without)).toThrow(/no status for .*insufficient_aal/);
  });

  it("takes a code's status from the module that owns it", () => {
    const moved = MODULES.map((module) =>
      module.name === "verification"
        ? { ...module, statuses: { ...module.statuses, otp_disabled: undefined } }
        : module,
    );
    const { byCode } = statusTable([...moved, { ...hello, statuses: { otp_disabled: 418 } }]);
    expect(byCode.otp_disabled).toBe(418);
  });

  it("has no two modules answering one method and path, so their order cannot decide a match", () => {
    expect(overlap("/user/:id", "/user/sessions")).toBe(true);
    expect(overlap("/health", "/health/ready")).toBe(false);
    const routes = routesByModule();
    expect(routes.length).toBeGreaterThan(30);
    const clashes = routes.flatMap((a, i) =>
      routes
        .slice(i + 1)
        .filter((b) => a.module !== b.module && a.method === b.method && overlap(a.path, b.path))
        .map((b) => `${a.module} ${a.method} ${a.path} / ${b.module} ${b.path}`),
    );
    expect(clashes).toEqual([]);
  });

  it("serves the routes of a module added to the list", async () => {
    const without = testApp();
    expect((await without.app.request("/hello")).status).toBe(404);
    const { app } = testApp({ modules: [...MODULES, hello] });
    const res = await app.request("/hello");
    expect(res.status).toBe(422);
    expect(res.headers.get("x-sb-error-code")).toBe("otp_disabled");
    expect((await app.request("/health")).status).toBe(200);
  });

  it("reads and settles the section of a module added to the list, and knows its variables", () => {
    const vars = { AUTHSVC_HELLO_GREETING: "hi there" };
    const devJwtSecret = () => "a-development-secret-of-forty-characters!";
    const result = loadConfig(vars, { modules: [...MODULES, hello], devJwtSecret });
    if (!result.ok) throw new Error(result.problems.join("; "));
    expect(result.config).toMatchObject({ hello: { greeting: "hi there" }, embedded: true });
    expect(result.warnings.join("\n")).not.toContain("AUTHSVC_HELLO_GREETING");
    const without = loadConfig(vars, { devJwtSecret });
    if (!without.ok) throw new Error(without.problems.join("; "));
    expect(without.config).not.toHaveProperty("hello");
    expect(without.warnings.join("\n")).toContain("AUTHSVC_HELLO_GREETING");
  });

  it("documents the section of a module added to the list, after the others", () => {
    const variables = variablesOf([...MODULES, hello]).map(describeVariable);
    expect(variables.at(-1)).toMatchObject({
      name: "AUTHSVC_HELLO_GREETING",
      group: "Hello",
      default: "hello",
    });
    expect(variablesOf(MODULES).map((v) => v.name)).not.toContain("AUTHSVC_HELLO_GREETING");
    expect(renderTables(variables)).toMatch(/### Hello\n\n[^#]*`AUTHSVC_HELLO_GREETING`/);
  });
});
