import { afterAll } from "vitest";
import { killRunningServers } from "./server-process.js";

// Registered first, so it runs after the file's own afterAll hooks (they run in reverse order): a
// server a test lost track of, typically one still starting when the test timed out, does not outlive
// its file and go on using the machine and the run's database.
afterAll(killRunningServers);
