/** The configuration sections, read and settled by load.ts; the catalogue and the docs list them through the modules (modules/index.ts), in that list's order. */
import * as api from "./api.js";
import * as db from "./db.js";
import * as external from "./external.js";
import * as general from "./general.js";
import * as hooks from "./hooks.js";
import * as jwt from "./jwt.js";
import * as mail from "./mail.js";
import * as mfa from "./mfa.js";
import * as rateLimits from "./rate-limits.js";
import * as security from "./security.js";
import * as sessions from "./sessions.js";
import * as sms from "./sms.js";
import * as telemetry from "./telemetry.js";

export * as passkeys from "./passkeys.js";
export { api, db, external, general, hooks, jwt, mail, mfa, rateLimits, security, sessions, sms, telemetry };
