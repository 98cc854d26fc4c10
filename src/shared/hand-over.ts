/**
 * Handing a freshly built list to a callee that would otherwise copy it. A caller that builds a
 * list only to pass it on (the agent's model node builds the system message plus the history
 * for each model call) marks it; the callee takes the mark and keeps the list instead of copying
 * it (a chat model copies its input because a caller may still hold it). On a long conversation
 * the copy is the history again, per model call.
 */

const handedOver = new WeakSet<object>();

/**
 * Marks `list` as given away: nothing else holds it, so its receiver may keep or change it.
 *
 * @example
 * ```ts
 * await model.invoke(handOver([system, ...history]));
 * ```
 */
export function handOver<T extends object>(list: T): T {
  handedOver.add(list);
  return list;
}

/**
 * True when `list` was handed over (see {@link handOver}); the mark is taken, so a second
 * receiver copies as usual.
 *
 * @example
 * ```ts
 * const messages = takeHandedOver(input) ? input : input.slice();
 * ```
 */
export function takeHandedOver(list: object): boolean {
  return handedOver.delete(list);
}
