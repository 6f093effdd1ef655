/**
 * A request part as its route's schema parsed it. The zod type provider cannot carry the types
 * through the kit's type parameters, so they are stated here; the schema makes them true.
 */
export function validated<T>(value: unknown): T {
  return value as T;
}
