import { failures, type GrantRegistry } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import type { HttpGrant } from "./grants/http-grant.js";

/** `POST /token?grant_type=<type>`: the grant types `grants` holds (the modules' `grants`). */
export const tokenRoutes = (grants: GrantRegistry<HttpGrant>) =>
  new Hono<AppEnv>().post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const json = await readJsonObject(c);
    const grant = grants.lookup(grantType);
    if (grant === undefined) throw failures.grantTypeUnsupported();
    return grant.handle(c, json);
  });
