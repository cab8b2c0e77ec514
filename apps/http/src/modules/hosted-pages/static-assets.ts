import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { PASSKEY_SCRIPT } from "./passkey-script.js";
import { gate, OFF, type Pages, pagesOf } from "./shared.js";

/** A file of the pages, cached a few minutes, typed by `contentType`; its body made once per app. */
function staticAsset(
  file: { readonly path: string; readonly summary: string; readonly description: string },
  contentType: "text/css" | "text/javascript",
  body: (pages: Pages) => string,
): ModuleEndpoint {
  return endpoint(
    {
      method: "get",
      path: file.path,
      summary: file.summary,
      access: "public",
      responses: {
        200: { description: file.description, media: contentType, body: { type: "string" } },
        404: OFF,
      },
    },
    (ctx: ModuleContext) => {
      const pages = pagesOf(ctx);
      const text = body(pages);
      return [
        gate(pages),
        (c) => {
          c.header("Cache-Control", "public, max-age=300");
          c.header("X-Content-Type-Options", "nosniff");
          return c.body(text, 200, { "content-type": `${contentType}; charset=utf-8` });
        },
      ];
    },
  );
}

/** The stylesheet (made from the configured colours) and the passkey script: the pages' only files. */
export const staticAssetEndpoints: readonly ModuleEndpoint[] = [
  staticAsset(
    {
      path: "/oauth/consent/pages.css",
      summary: "The hosted pages' stylesheet, made from the configured colours.",
      description: "The stylesheet.",
    },
    "text/css",
    (pages) => pages.stylesheet,
  ),
  staticAsset(
    {
      path: "/oauth/consent/passkey.js",
      summary: "The sign-in page's passkey script (the pages' only script, served by authsvc).",
      description: "The script.",
    },
    "text/javascript",
    () => PASSKEY_SCRIPT,
  ),
];
