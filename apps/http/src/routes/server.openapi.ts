import { type Operation, ref } from "../http/operation.js";

/** `GET /health`, `GET /health/ready`, `GET /settings` (routes/health.ts, ready.ts, settings.ts). */
export const serverOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/health",
    summary: "Liveness, with the build version; never looks at the database.",
    access: "public",
    responses: { 200: { description: "The server runs.", body: ref("Health") } },
  },
  {
    method: "get",
    path: "/health/ready",
    summary: "Readiness for a load balancer: whether the database answers (within 2 s).",
    description:
      "A misconfiguration an operator must fix is named in `warnings` without making the instance unready.",
    access: "public",
    responses: {
      200: { description: "Every dependency answers.", body: ref("Readiness") },
      503: { description: "A dependency does not answer; `checks` names it.", body: ref("Readiness") },
    },
  },
  {
    method: "get",
    path: "/settings",
    summary: "The public settings: which providers are enabled, sign-up and autoconfirm switches.",
    access: "public",
    responses: { 200: { description: "The settings.", body: ref("Settings") } },
  },
];
