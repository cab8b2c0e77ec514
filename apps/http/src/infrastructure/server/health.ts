import { ref } from "../../http/operation.js";
import { endpoint } from "../../modules/module.js";

/** `GET /health`: liveness, with the build version. */
export const healthEndpoint = endpoint(
  {
    method: "get",
    path: "/health",
    summary: "Liveness, with the build version; never looks at the database.",
    access: "public",
    responses: { 200: { description: "The server runs.", body: ref("Health") } },
  },
  ({ version }) => [
    (c) =>
      c.json({
        version,
        name: "authsvc",
        description: "authsvc is a user registration and authentication API",
      }),
  ],
);
