export { type Cleaner, type CleanerOptions, cleaner, type PassReport, type TurnFailure } from "./cleaner.js";
export type { CleanupTask, CleanupTurn } from "./task.js";
export { type CleanupSettings, cleanupTasks } from "./tasks/index.js";
