/**
 * Field paths of vector indexes: which parts of a stored value are embedded. A path is `"$"`
 * (the whole value), dotted keys (`"meta.title"`), array elements (`"chapters[*].text"`,
 * `"authors[0]"`, `"tags[-1]"`), any key (`"sections.*"`) or several keys (`"{title,summary}"`).
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
  const tokens: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of path) {
    if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") depth--;
    if (char === "." && depth === 0) {
      if (current !== "") tokens.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (current !== "") tokens.push(current);
  return tokens;
}

function elementsAt(array: unknown, spec: string): unknown[] {
  if (!Array.isArray(array)) return [];
  if (spec === "*") return array;
  const index = Number(spec);
  if (!Number.isInteger(index)) return [];
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
      for (const key of token.slice(1, -1).split(",")) {
        const trimmed = key.trim();
        if (Object.hasOwn(record, trimmed)) out.push(record[trimmed]);
      }
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
  let values: unknown[] = [value];
  const tokens = tokenizePath(path);
  for (let i = tokens[0] === "$" ? 1 : 0; i < tokens.length; i++) values = step(values, tokens[i] as string);
  const texts: string[] = [];
  for (const item of values) {
    const text = asText(item);
    if (text !== undefined) texts.push(text);
  }
  return texts;
}
