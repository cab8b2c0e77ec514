import type { Logger } from "pino";
import type { ApiVersion } from "./middleware/api-version.js";

/** What every request carries through the middleware chain. */
export type AppEnv = {
  Variables: {
    requestId: string;
    log: Logger;
    apiVersion: ApiVersion;
  };
};
