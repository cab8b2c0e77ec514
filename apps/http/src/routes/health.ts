import { Hono } from "hono";

/** `GET /health`: liveness, with the build version. */
export const healthRoutes = (version: string) =>
  new Hono().get("/health", (c) =>
    c.json({
      version,
      name: "authsvc",
      description: "authsvc is a user registration and authentication API",
    }),
  );
