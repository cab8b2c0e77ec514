/**
 * For tests only: what the end-to-end tests share with the app's own tests — the environment of a
 * server started as a process, its keys, and the fuzzing of every endpoint. The app's own tests
 * import the files directly; the end-to-end tests import `@authsvc/http/testing`.
 */

export * from "./fuzz/endpoints.js";
export * from "./fuzz/fields.js";
export * from "./fuzz/provider-answers.js";
export * from "./fuzz/requests.js";
export * from "./fuzz/targeted.js";
export * from "./server-env.js";
