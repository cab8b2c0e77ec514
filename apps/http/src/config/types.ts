/**
 * The shape of the parsed configuration: the union of what each section (sections/) yields. Units
 * are in the fields' TSDoc (plain numbers of seconds unless the name ends in `Ms`).
 */
export type { DbConfig } from "./sections/db.js";
export type { GeneralConfig } from "./sections/general.js";

export type { Config } from "./shape.js";
