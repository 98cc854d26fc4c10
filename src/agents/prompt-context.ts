/**
 * `context`, the tagged template LangChain.js exports from `langchain` for writing prompts and
 * descriptions inside indented code. It:
 *
 * - joins the template's raw text with its values (a value that is not a string is written as
 *   JSON; a multi-line string value has its later lines indented like the line it starts on);
 * - drops a backslash at the end of a line together with the line break and the next line's
 *   leading blanks, and turns `` \` ``, `\$` and `\{` into the character they escape;
 * - removes the indentation common to the indented lines (lines starting in the first column
 *   are left as they are and do not count), trims the result, and turns each `\n` written in
 *   the template into a line break.
 *
 * @example
 * ```ts
 * const role = "agent";
 * const prompt = context`
 *   You are an ${role}.
 *   Your task is to help users.
 * `;
 * prompt; // "You are an agent.\nYour task is to help users."
 * ```
 */
export function context(strings: TemplateStringsArray, ...values: unknown[]): string {
  let text = "";
  for (let i = 0; i < strings.raw.length; i += 1) {
    text += unescapeRaw(strings.raw[i] as string);
    if (i < values.length) {
      const value = indentLikeLine(values[i], text);
      text += typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  return removeCommonIndent(text).trim().replace(/\\n/g, "\n");
}

/** The template's own escapes: line continuations, `` \` ``, `\$` and `\{`. */
function unescapeRaw(raw: string): string {
  return raw
    .replace(/\\\n[ \t]*/g, "")
    .replace(/\\`/g, "`")
    .replace(/\\\$/g, "$")
    .replace(/\\\{/g, "{");
}

/** A multi-line string value, its later lines indented like the line `before` ends on. */
function indentLikeLine(value: unknown, before: string): unknown {
  if (typeof value !== "string" || !value.includes("\n")) return value;
  const line = before.slice(before.lastIndexOf("\n") + 1);
  const indent = /^\s+/.exec(line)?.[0];
  return indent === undefined ? value : value.split("\n").join(`\n${indent}`);
}

/** Removes from every indented line the smallest indentation of an indented, non-blank line. */
function removeCommonIndent(text: string): string {
  const lines = text.split("\n");
  let smallest: number | undefined;
  for (const line of lines) {
    const indent = /^(\s+)\S/.exec(line)?.[1]?.length;
    if (indent !== undefined && (smallest === undefined || indent < smallest)) smallest = indent;
  }
  if (smallest === undefined) return text;
  const cut = smallest;
  return lines.map((line) => (line[0] === " " || line[0] === "\t" ? line.slice(cut) : line)).join("\n");
}
