import { type Operation, ref } from "../http/operation.js";

/** `GET /.well-known/jwks.json` (routes/jwks.ts). */
export const jwksOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/.well-known/jwks.json",
    summary: "The public keys that verify access tokens (none with `JWT_SECRET` alone).",
    access: "public",
    responses: {
      200: {
        description: "The key set; `Cache-Control: public, max-age=600`.",
        body: ref("Jwks"),
        headers: { "cache-control": { description: "`public, max-age=600`.", required: true } },
      },
    },
  },
];
