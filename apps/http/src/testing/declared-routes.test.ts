import { FakeCaptcha } from "@authsvc/core/testing";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { MODULES } from "../composition/modules.js";
import type { AppEnv } from "../http/app-env.js";
import { endpoint, type HttpModule } from "../modules/module.js";
import { declaredRoutes, undeclaredRoutes } from "./declared-routes.js";
import { testApp } from "./test-app.js";

const hello = endpoint(
  {
    method: "get",
    path: "/hello/{name}",
    summary: "Greets.",
    access: "public",
    pathParameters: [{ name: "name", description: "Who." }],
    responses: { 200: { description: "A greeting.", body: { type: "object" } } },
  },
  () => [(c) => c.json({ hello: c.req.param("name") })],
);

describe("undeclaredRoutes", () => {
  it("finds none in a module whose every route is an endpoint", () => {
    const module: HttpModule = { name: "hello", endpoints: [hello] };
    const { app } = testApp({ modules: [...MODULES, module] });
    expect(declaredRoutes([module])).toEqual([{ method: "GET", path: "/hello/:name" }]);
    expect(undeclaredRoutes(app, [...MODULES, module])).not.toContainEqual({
      method: "GET",
      path: "/hello/:name",
    });
  });

  it("finds a route mounted past the declarations", () => {
    const module: HttpModule = { name: "hello", endpoints: [hello] };
    const { app } = testApp({ modules: [...MODULES, module] });
    app.route(
      "/",
      new Hono<AppEnv>().post("/hello/:name/wave", (c) => c.body(null, 204)),
    );
    expect(undeclaredRoutes(app, [...MODULES, module])).toContainEqual({
      method: "POST",
      path: "/hello/:name/wave",
    });
  });

  it("finds a handler of every method, or a guard, put on a path past the declarations", () => {
    const { app } = testApp();
    app.all("/hello", (c) => c.body(null, 204));
    app.use("/token", (_c, next) => next());
    expect(undeclaredRoutes(app, MODULES)).toEqual([
      { method: "ALL", path: "/hello" },
      { method: "ALL", path: "/token" },
    ]);
  });
});

describe("an endpoint switched off", () => {
  it("is not served, and its guards do not run in front of the 404", async () => {
    const off: HttpModule = {
      name: "off",
      endpoints: [
        endpoint(
          {
            method: "post",
            path: "/off",
            summary: "Switched off.",
            access: "public",
            responses: { 204: { description: "Never." } },
          },
          () => [],
          { captcha: true },
        ),
      ],
    };
    const { app } = testApp({ modules: [...MODULES, off], captcha: new FakeCaptcha(new Set(["good"])) });
    const res = await app.request("/off", { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_code: "not_found" });
    expect(undeclaredRoutes(app, [...MODULES, off])).toEqual([]);
  });
});
