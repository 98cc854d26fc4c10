/** A random RFC 4122 version 4 UUID. */
export function randomId(): string {
  return crypto.randomUUID();
}

let uniquePrefix: string | undefined;
let uniqueCounter = 0;

/**
 * A UUID-shaped id (version 4 layout) that no other call returns: a prefix drawn at random once
 * per process (74 random bits) and a counter. Ids of two processes share a prefix with a
 * probability of about 2^-74, so they serve where ids must only be distinct, also once stored
 * (the ids the messages reducer gives messages, runs that are not persisted); they are not
 * unpredictable. Several times cheaper than {@link randomId} before the engine optimizes the
 * caller, and a thread's history gives one to every tool result.
 *
 * @example
 * ```ts
 * uniqueId(); // "3f0c9a1e-77d2-4b1a-9c04-000000000001"
 * ```
 */
export function uniqueId(): string {
  if (uniquePrefix === undefined) {
    const bytes = new Uint8Array(10);
    crypto.getRandomValues(bytes);
    let hex = "";
    for (let i = 0; i < 10; i++) hex += (bytes[i] as number).toString(16).padStart(2, "0");
    uniquePrefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${(8 | ((bytes[8] as number) & 3)).toString(16)}${hex.slice(17, 20)}-`;
  }
  uniqueCounter = (uniqueCounter + 1) % 0x1000000000000;
  return uniquePrefix + uniqueCounter.toString(16).padStart(12, "0");
}
