import { endpoint, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { whenOn } from "./guard.js";
import { STYLESHEET } from "./layout.js";

/** The console's stylesheet: its only file (the pages have no script). */
export const staticAssetEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/console/console.css",
      summary: "The admin console's stylesheet.",
      access: "public",
      responses: {
        200: { description: "The stylesheet.", media: "text/css", body: { type: "string" } },
        404: htmlPage("The console is off (`ADMIN_CONSOLE_ENABLED`)."),
      },
    },
    (ctx) =>
      whenOn(ctx, [
        async (c) => {
          c.header("Cache-Control", "public, max-age=300");
          c.header("X-Content-Type-Options", "nosniff");
          return c.body(STYLESHEET, 200, { "content-type": "text/css; charset=utf-8" });
        },
      ]),
  ),
];
