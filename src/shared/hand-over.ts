/**
 * Handing a freshly built list to a callee that would otherwise copy it. A caller that builds a
 * list only to pass it on (the agent's model node builds the system message plus the history
 * for each model call) marks it; the callee takes the mark and keeps the list instead of copying
 * it (a chat model copies its input because a caller may still hold it). On a long conversation
 * the copy is the history again, per model call.
 */

/** Each handed-over list, with whether its items were checked already (see {@link handOver}). */
const handedOver = new WeakMap<object, boolean>();

/**
 * Marks `list` as given away: nothing else holds it, so its receiver may keep or change it.
 * `checked` says that every item already is what the receiver converts items to (messages, for
 * a chat model: a conversation the messages reducer built), so the receiver need not look at
 * them one by one.
 *
 * @example
 * ```ts
 * await model.invoke(handOver([system, ...history]));
 * ```
 */
export function handOver<T extends object>(list: T, checked = false): T {
  handedOver.set(list, checked);
  return list;
}

/**
 * How `list` was handed over (see {@link handOver}): `"no"`, `"list"` (the receiver may keep it)
 * or `"checked"` (it may also skip checking its items). The mark is taken, so a second receiver
 * copies and checks as usual.
 *
 * @example
 * ```ts
 * const handed = takeHandedOver(input);
 * const messages = handed === "no" ? input.slice() : input;
 * ```
 */
export function takeHandedOver(list: object): "no" | "list" | "checked" {
  const checked = handedOver.get(list);
  if (checked === undefined) return "no";
  handedOver.delete(list);
  return checked ? "checked" : "list";
}
