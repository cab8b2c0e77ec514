export * from "./crypto/api-keys.js";
export * from "./mail/log-mailer.js";
export * from "./postgres/connect.js";
export * from "./postgres/embedded-server.js";
export * from "./postgres/migrate.js";
