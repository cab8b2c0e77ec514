export type * from "./mailer.js";
