import { type Operation, ref } from "../http/operation.js";
import { closed } from "../openapi/schemas.js";

/** `GET /user/sessions`, `DELETE /user/sessions/{session_id}` (routes/user-sessions.ts). */
export const userSessionOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/user/sessions",
    summary: "The signed-in user's own sessions (an extension of the reference's interface).",
    access: "user",
    responses: {
      200: {
        description: "Every session of the user.",
        body: closed({ sessions: { type: "array", items: ref("UserSession") } }),
      },
    },
  },
  {
    method: "delete",
    path: "/user/sessions/{session_id}",
    summary: "Ends one of the signed-in user's sessions.",
    access: "user",
    pathParameters: [{ name: "session_id", description: "The session's id." }],
    responses: { 200: { description: "Ended.", body: ref("Empty") } },
    errors: [404],
  },
];
