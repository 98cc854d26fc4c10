/**
 * Field paths of vector indexes: which parts of a stored value are embedded. A path is `"$"`
 * (the whole value), dotted keys (`"meta.title"`), array elements (`"chapters[*].text"`,
 * `"authors[0]"`, `"tags[-1]"`), any key (`"sections.*"`) or several fields (`"{title,meta.author}"`).
 */

/**
 * Splits a field path into its parts at the dots that are not inside brackets or braces.
 *
 * @example
 * ```ts
 * tokenizePath("chapters[*].text"); // ["chapters[*]", "text"]
 * tokenizePath("$"); // ["$"]
 * ```
 */
export function tokenizePath(path: string): string[] {
  return splitOutsideBrackets(path, ".").filter((token) => token !== "");
}

/** `text` split at each `separator` that is not inside brackets or braces. */
function splitOutsideBrackets(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of text) {
    if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") depth--;
    if (char === separator && depth === 0) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function elementsAt(array: unknown, spec: string): unknown[] {
  if (!Array.isArray(array)) return [];
  if (spec === "*") return array;
  // an index is an integer, written in decimal ("items[]" or "items[abc]" select nothing)
  if (!/^-?\d+$/.test(spec)) return [];
  const index = Number(spec);
  const item = array[index < 0 ? array.length + index : index];
  return item === undefined ? [] : [item];
}

function step(values: unknown[], token: string): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    if (typeof value !== "object" || value === null) continue;
    const record = value as Record<string, unknown>;
    if (token === "*") {
      out.push(...(Array.isArray(value) ? value : Object.values(record)));
    } else if (token.startsWith("{") && token.endsWith("}")) {
      // each field is a path of its own, read from this value ("{title,meta.author}")
      for (const field of splitFields(token.slice(1, -1))) out.push(...walk([value], tokenizePath(field)));
    } else {
      const bracket = token.indexOf("[");
      if (bracket < 0) {
        if (Object.hasOwn(record, token)) out.push(record[token]);
        continue;
      }
      let current: unknown[] =
        bracket === 0
          ? [value]
          : Object.hasOwn(record, token.slice(0, bracket))
            ? [record[token.slice(0, bracket)]]
            : [];
      for (const match of token.slice(bracket).matchAll(/\[([^\]]*)\]/g)) {
        current = current.flatMap((item) => elementsAt(item, (match[1] as string).trim()));
      }
      out.push(...current);
    }
  }
  return out;
}

/** The comma-separated fields of a `{…}` token, split at the commas outside brackets and braces. */
function splitFields(list: string): string[] {
  return splitOutsideBrackets(list, ",")
    .map((field) => field.trim())
    .filter((field) => field !== "");
}

function walk(values: unknown[], tokens: readonly string[]): unknown[] {
  let current = values;
  for (const token of tokens) current = step(current, token);
  return current;
}

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/**
 * The texts at a field path of a value, to embed: strings as they are, other values as
 * JSON. Missing fields give no text.
 *
 * @example
 * ```ts
 * getTextAtPath({ chapters: [{ text: "a" }, { text: "b" }] }, "chapters[*].text"); // ["a", "b"]
 * getTextAtPath({ title: "T" }, "$"); // ['{\n  "title": "T"\n}']
 * ```
 */
export function getTextAtPath(value: unknown, path: string): string[] {
  const tokens = tokenizePath(path);
  const values = walk([value], tokens[0] === "$" ? tokens.slice(1) : tokens);
  const texts: string[] = [];
  for (const item of values) {
    const text = asText(item);
    if (text !== undefined) texts.push(text);
  }
  return texts;
}
