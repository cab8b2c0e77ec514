import { failures } from "@authsvc/core";
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { TOKEN_GRANTS } from "./grants/index.js";

/** `POST /token?grant_type=<type>`: the grant types of `grants/index.ts`. */
export const tokenRoutes = () =>
  new Hono<AppEnv>().post("/token", async (c) => {
    const grantType = c.req.query("grant_type");
    const json = await readJsonObject(c);
    const grant = TOKEN_GRANTS.lookup(grantType);
    if (grant === undefined) throw failures.grantTypeUnsupported();
    return grant.handle(c, json);
  });
