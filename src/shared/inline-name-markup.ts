/**
 * The inline agent-name markup of `includeAgentName: "inline"` (`createAgent`, and
 * `createReactAgent`): a named AI message's text shown to the model as
 * `<name>agent</name><content>…</content>`, and taken off the model's reply again.
 */

const NAME_TAG = /<name>(.*?)<\/name>/s;
const CONTENT_TAG = /<content>(.*?)<\/content>/s;

/** `text` said by `name`, in the inline markup: `<name>name</name><content>text</content>`. */
export const tagged = (name: string, text: string): string =>
  `<name>${name}</name><content>${text}</content>`;

/**
 * The name and content of a text in the inline markup; `undefined` unless it holds both tags.
 */
export function untaggedText(text: string): { name: string | undefined; content: string } | undefined {
  const name = text.match(NAME_TAG);
  const content = text.match(CONTENT_TAG);
  if (name === null || content === null) return undefined;
  return { name: name[1], content: content[1] ?? "" };
}

/**
 * A content list with the inline markup taken off its text blocks: a block holding both tags
 * keeps what is inside `<content>`, one whose `<content>` is missing or empty is dropped, any
 * other block stays; `name` is the last name the markup gave (`undefined` when none did).
 */
export function untaggedBlocks(blocks: readonly unknown[]): { blocks: unknown[]; name: string | undefined } {
  let found: string | undefined;
  const kept: unknown[] = [];
  for (const block of blocks) {
    const text =
      typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text"
        ? (block as { text?: unknown }).text
        : undefined;
    if (typeof text !== "string") {
      kept.push(block);
      continue;
    }
    const name = text.match(NAME_TAG);
    const content = text.match(CONTENT_TAG);
    if (name !== null) found = name[1];
    // a block that only carried the name (no content, or empty content) is dropped
    if (name !== null && (content === null || content[1] === "")) continue;
    kept.push(name !== null && content !== null ? { ...(block as object), text: content[1] ?? "" } : block);
  }
  return { blocks: kept, name: found };
}
