/** A random RFC 4122 version 4 UUID. */
export function randomId(): string {
  return crypto.randomUUID();
}
