import { Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";

/** `GET /health`: liveness, with the build version. */
export const healthRoutes = (version: string) =>
  new Hono<AppEnv>().get("/health", (c) =>
    c.json({
      version,
      name: "authsvc",
      description: "authsvc is a user registration and authentication API",
    }),
  );
