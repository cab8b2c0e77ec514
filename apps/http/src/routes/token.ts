import { failures } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import type { HttpGrantRegistry } from "../http/grants/http-grant.js";
import { readJsonObject } from "../http/middleware/json-body.js";

/** `POST /token?grant_type=<type>`: the grant types of `grants` (the modules' `grants`) offered here. */
export const tokenRoutes = (grants: HttpGrantRegistry) => {
  const offered = grants.at("/token");
  return new Hono<AppEnv>().post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const json = await readJsonObject(c);
    const grant = offered.lookup(grantType);
    if (grant === undefined) throw failures.grantTypeUnsupported();
    return grant.handle(c, json);
  });
};
