const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The nil UUID, which the reference never accepts as a user id. */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** Whether `value` is a UUID in the canonical 8-4-4-4-12 hex form (any version, any case). */
export const isUuid = (value: string): boolean => UUID.test(value);
