/** In-memory fakes and port contract suites, for tests only. */
export {};
