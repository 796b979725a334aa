const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or actor id is a uuid: checked before a query, so a malformed id is a 404, never a database error. */
export const isUuid = (id: string) => UUID.test(id);
