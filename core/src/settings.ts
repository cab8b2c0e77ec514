import type { Composed, KernelSettings } from "./kernel/index.js";
import type { Slices } from "./slices.js";

/**
 * The configuration the use cases read: the kernel's settings and each slice's own
 * (`<slice>/settings.ts`, named in its entry of `SLICES`).
 */
export interface AuthSettings extends KernelSettings, Composed<Slices, "settings"> {}
