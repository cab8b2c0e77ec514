import { ref } from "../../http/operation.js";
import { endpoint } from "../../modules/module.js";

/** `GET /settings`: computed once at start, so the route does no work per request. */
export const settingsEndpoint = endpoint(
  {
    method: "get",
    path: "/settings",
    summary: "The public settings: which providers are enabled, sign-up and autoconfirm switches.",
    access: "public",
    responses: { 200: { description: "The settings.", body: ref("Settings") } },
  },
  ({ settings }) => {
    const body = JSON.stringify(settings);
    return [(c) => c.body(body, 200, { "content-type": "application/json" })];
  },
);
