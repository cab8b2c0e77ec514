import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { MODULES } from "../composition/modules.js";
import { loadConfig } from "../config.js";
import { testApp } from "../testing/test-app.js";
import { openApiDocument } from "./document.js";
import { updateHttpApiDoc } from "./markdown.js";

const doc = openApiDocument(MODULES);

/** `METHOD /path` with every parameter written `{}`, whatever its name (a route's `/*` rest too). */
const normal = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:[^/]+|\{[^}]+\}|(?<=\/)\*$/g, "{}")}`;

describe("the OpenAPI description", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("describes every route the app serves, and none it does not", () => {
    // Middleware is `ALL`; a route ending in `/*` (the discovery's path-insertion form) is one too.
    const served = testApp()
      .app.routes.filter((route) => route.method !== "ALL")
      .map((route) => normal(route.method, route.path));
    const described = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => normal(method, path)),
    );
    expect(described.sort()).toEqual([...new Set(served)].sort());
  });

  it("has a JSON Schema (2020-12) that compiles for every body it names", () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => Ajv2020)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components });
    let compiled = 0;
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item) as { requestBody?: unknown; responses: unknown }[]) {
        const text = JSON.stringify([operation.requestBody ?? null, operation.responses]);
        for (const match of text.matchAll(/"schema":(\{"\$ref":"#\/components\/schemas\/[^"]+"\})/g)) {
          ajv.compile(JSON.parse((match[1] ?? "").replace("#/", "doc#/")));
          compiled += 1;
        }
      }
    }
    for (const name of Object.keys((doc.components as { schemas: object }).schemas)) {
      ajv.getSchema(`doc#/components/schemas/${name}`);
    }
    expect(compiled).toBeGreaterThan(10);
  });

  it("takes each route's request body from its valibot schema: every field the route reads", () => {
    const signup = doc.paths["/signup"]?.post as {
      requestBody: { content: Record<string, { schema: object }> };
    };
    const schema = signup.requestBody.content["application/json"]?.schema as { properties: object };
    expect(Object.keys(schema.properties).sort()).toEqual(
      ["channel", "code_challenge", "code_challenge_method", "data", "email", "password", "phone"].sort(),
    );
    const token = doc.paths["/token"]?.post as { parameters: { name: string; schema: { enum: string[] } }[] };
    expect(
      token.parameters
        .find((p) => p.name === "grant_type")
        ?.schema.enum.slice()
        .sort(),
    ).toEqual(["id_token", "password", "pkce", "refresh_token", "web3"].sort());
    const callback = doc.paths["/callback"]?.post as { requestBody: { content: object } };
    expect(Object.keys(callback.requestBody.content)).toContain("application/x-www-form-urlencoded");
  });

  it("lists under each error status the catalogue's codes, in both body shapes", () => {
    const schemas = (
      doc.components as {
        schemas: Record<
          string,
          { oneOf: { properties: Record<string, { enum?: string[]; const?: number }> }[] }
        >;
      }
    ).schemas;
    const [legacy, dated] = schemas.Error422?.oneOf ?? [];
    expect(legacy?.properties.code?.const).toBe(422);
    expect(legacy?.properties.error_code?.enum).toEqual(
      expect.arrayContaining(["weak_password", "email_exists"]),
    );
    expect(dated?.properties.code?.enum).toEqual(legacy?.properties.error_code?.enum);
    expect(schemas.Error404?.oneOf[0]?.properties.error_code?.enum).toContain("not_found");
    expect(schemas.Error400?.oneOf[0]?.properties.error_code?.enum).not.toContain("weak_password");
  });
});

/** The least a production configuration needs. */
const productionEnv = () => ({
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
});

describe("GET /openapi.json", () => {
  it("serves the description, naming the base path it was asked under as its server", async () => {
    const { app } = testApp({ basePaths: ["/", "/auth/v1"] });
    const root = await app.request("/openapi.json");
    expect(root.status).toBe(200);
    expect(root.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await root.json()) as { servers: unknown; paths: object };
    expect(body.servers).toEqual([{ url: "/" }]);
    expect(Object.keys(body.paths)).toEqual(Object.keys(doc.paths));
    const prefixed = (await (await app.request("/auth/v1/openapi.json")).json()) as { servers: unknown };
    expect(prefixed.servers).toEqual([{ url: "/auth/v1" }]);
  });

  it("is not served when AUTHSVC_API_OPENAPI_ENABLED is false (404 not_found)", async () => {
    const res = await testApp({ openapiEnabled: false }).app.request("/openapi.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_code: "not_found" });
  });

  it("AUTHSVC_API_OPENAPI_ENABLED defaults to on, and refuses a value that is not a boolean", () => {
    const on = loadConfig(productionEnv());
    expect(on.ok && on.config.openapi.enabled).toBe(true);
    const off = loadConfig({ ...productionEnv(), AUTHSVC_API_OPENAPI_ENABLED: "false" });
    expect(off.ok && off.config.openapi.enabled).toBe(false);
    const bad = loadConfig({ ...productionEnv(), AUTHSVC_API_OPENAPI_ENABLED: "sometimes" });
    expect(bad.ok).toBe(false);
  });
});

describe("docs/http-api.md", () => {
  it("holds the endpoint table and the operations rendered from the description (`npm run docs:api`)", () => {
    const page = readFileSync(new URL("../../../../docs/http-api.md", import.meta.url), "utf8");
    expect(page).toBe(updateHttpApiDoc(page, doc));
    expect(page).toContain("### POST /verify");
  });
});
