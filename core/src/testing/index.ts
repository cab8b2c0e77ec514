/** In-memory fakes and port contract suites, for tests only. */
export * from "./fake-crypto.js";
export * from "./fake-deps.js";
export * from "./fake-store.js";
