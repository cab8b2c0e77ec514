import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { MODULES } from "../../composition/modules.js";
import type { AppEnv } from "../../http/app-env.js";
import { basePathGetter } from "../../http/base-path.js";
import { routesOf } from "../../http/endpoint.js";
import type { ModuleContext } from "../../modules/module.js";
import { openapiEndpoint } from "./openapi.js";

/** The endpoint alone under `basePaths`; `built` counts how often the description was built. */
function served(basePaths: readonly string[] = ["/", "/auth/v1"]) {
  const counter = { built: 0 };
  // The only parts of the context the endpoint reads; each read of the modules is one build.
  const ctx = {
    version: "1.2.3",
    get modules() {
      counter.built++;
      return MODULES;
    },
  } as unknown as ModuleContext;
  const app = new Hono<AppEnv>({ getPath: basePathGetter(basePaths) }).route(
    "/",
    routesOf([openapiEndpoint], ctx),
  );
  return { app, counter };
}

type Description = { openapi: string; info: { version: string }; servers: unknown; paths: object };

describe("GET /openapi.json", () => {
  it("answers the modules' description as JSON, with the version given", async () => {
    const { app } = served();
    const res = await app.request("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = (await res.json()) as Description;
    expect(body.openapi).toBe("3.1.0");
    expect(body.info.version).toBe("1.2.3");
    expect(body.paths).toHaveProperty("/openapi.json");
    expect(body.paths).toHaveProperty("/admin/sso/providers");
  });

  it("names the base path it was asked under as the server, `/` at the root", async () => {
    const { app } = served(["/", "/auth/v1", "/tenant/auth"]);
    const servers = async (path: string) => ((await (await app.request(path)).json()) as Description).servers;
    expect(await servers("/openapi.json")).toEqual([{ url: "/" }]);
    expect(await servers("/auth/v1/openapi.json")).toEqual([{ url: "/auth/v1" }]);
    expect(await servers("/tenant/auth/openapi.json")).toEqual([{ url: "/tenant/auth" }]);
    // Asked again, each base path keeps its own server.
    expect(await servers("/openapi.json")).toEqual([{ url: "/" }]);
  });

  it("builds the description once per base path, and not before it is asked for", async () => {
    const { app, counter } = served();
    expect(counter.built).toBe(0);
    const first = await (await app.request("/auth/v1/openapi.json")).text();
    const again = await (await app.request("/auth/v1/openapi.json")).text();
    expect(again).toBe(first);
    expect(counter.built).toBe(1);
    await app.request("/openapi.json");
    await app.request("/openapi.json");
    expect(counter.built).toBe(2);
  });

  it("keeps the bodies of 16 base paths; beyond them it answers but builds at each request", async () => {
    const prefixes = Array.from({ length: 17 }, (_, i) => `/b${i}`);
    const { app, counter } = served(prefixes);
    for (const prefix of prefixes) {
      const res = await app.request(`${prefix}/openapi.json`);
      expect(((await res.json()) as Description).servers).toEqual([{ url: prefix }]);
    }
    expect(counter.built).toBe(17);
    await app.request("/b0/openapi.json");
    await app.request("/b15/openapi.json");
    expect(counter.built).toBe(17);
    const late = await app.request("/b16/openapi.json");
    expect(((await late.json()) as Description).servers).toEqual([{ url: "/b16" }]);
    expect(counter.built).toBe(18);
  });

  it("serves GET only", async () => {
    const { app } = served();
    expect((await app.request("/openapi.json", { method: "POST" })).status).toBe(404);
  });

  it("is not mounted at all when AUTHSVC_API_OPENAPI_ENABLED is off, so no method of its path is known", () => {
    const ctx = { version: "1.2.3", modules: MODULES, openapiEnabled: false } as unknown as ModuleContext;
    expect(routesOf([openapiEndpoint], ctx).routes).toEqual([]);
  });
});
