/**
 * Parses JSON that may be cut off anywhere, as tool-call arguments are while they stream:
 * unterminated strings, objects and arrays are closed, a trailing key without a value is
 * dropped, and a literal prefix (`tr`, `nu`, `-`) reads as the literal it starts. Returns
 * `null` when the text cannot be the beginning of a JSON document (the same convention as
 * LangChain.js `parsePartialJson`).
 *
 * Complete JSON takes the fast path through `JSON.parse`.
 *
 * @example
 * ```ts
 * parsePartialJson('{"city": "Suz');   // { city: "Suz" }
 * parsePartialJson('{"tags": [1, 2'); // { tags: [1, 2] }
 * parsePartialJson("{oops");           // null
 * ```
 */
export function parsePartialJson(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    // fall through to the tolerant parser
  }
  try {
    return new PartialJsonParser(text.trim()).parseDocument();
  } catch {
    return null;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;

const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  "/": "/",
  "\\": "\\",
  '"': '"',
};

class PartialJsonParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    if (this.text.length === 0) throw new SyntaxError("empty input");
    const value = this.parseValue();
    this.skipWhitespace();
    if (!this.atEnd()) throw new SyntaxError(`unexpected character at ${this.pos}`);
    return value;
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private skipWhitespace(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const code = text.charCodeAt(this.pos);
      if (code !== 32 && code !== 9 && code !== 10 && code !== 13) return;
      this.pos += 1;
    }
  }

  private parseValue(): unknown {
    this.skipWhitespace();
    if (this.atEnd()) throw new SyntaxError("unexpected end of input");
    const char = this.text[this.pos];
    if (char === "{") return this.parseObject();
    if (char === "[") return this.parseArray();
    if (char === '"') return this.parseString();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.parseNumber();
    for (const [word, value] of LITERALS) {
      const rest = this.text.slice(this.pos, this.pos + word.length);
      if (word.startsWith(rest)) {
        this.pos += rest.length;
        return value;
      }
    }
    throw new SyntaxError(`unexpected character at ${this.pos}`);
  }

  private parseObject(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.pos += 1;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos += 1;
      return object;
    }
    while (true) {
      this.skipWhitespace();
      if (this.atEnd()) return object;
      const key = this.parseString();
      this.skipWhitespace();
      if (this.atEnd()) return object;
      if (this.text[this.pos] !== ":") throw new SyntaxError(`expected ':' at ${this.pos}`);
      this.pos += 1;
      this.skipWhitespace();
      if (this.atEnd()) return object;
      const value = this.parseValue();
      if (key === "__proto__") {
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        object[key] = value;
      }
      this.skipWhitespace();
      if (this.atEnd()) return object;
      const next = this.text[this.pos];
      this.pos += 1;
      if (next === "}") return object;
      if (next !== ",") throw new SyntaxError(`expected ',' or '}' at ${this.pos - 1}`);
    }
  }

  private parseArray(): unknown[] {
    const array: unknown[] = [];
    this.pos += 1;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos += 1;
      return array;
    }
    while (true) {
      this.skipWhitespace();
      if (this.atEnd()) return array;
      array.push(this.parseValue());
      this.skipWhitespace();
      if (this.atEnd()) return array;
      const next = this.text[this.pos];
      this.pos += 1;
      if (next === "]") return array;
      if (next !== ",") throw new SyntaxError(`expected ',' or ']' at ${this.pos - 1}`);
    }
  }

  /** Reads a string; an unterminated one ends at the end of input. */
  private parseString(): string {
    if (this.text[this.pos] !== '"') throw new SyntaxError(`expected '"' at ${this.pos}`);
    this.pos += 1;
    let result = "";
    while (!this.atEnd()) {
      const runEnd = this.endOfPlainRun(this.pos);
      result += this.text.slice(this.pos, runEnd);
      this.pos = runEnd;
      if (this.atEnd()) break;
      const char = this.text[this.pos];
      this.pos += 1;
      if (char === '"') return result;
      result += this.readEscape();
    }
    return result;
  }

  /** The position of the next quote or backslash at or after `from` (or the end). */
  private endOfPlainRun(from: number): number {
    const text = this.text;
    let i = from;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === QUOTE || code === BACKSLASH) break;
      i += 1;
    }
    return i;
  }

  /** Decodes the escape after a backslash; a cut-off one keeps what arrived as text. */
  private readEscape(): string {
    if (this.atEnd()) return "\\";
    const escaped = this.text[this.pos] as string;
    this.pos += 1;
    if (escaped === "u") {
      const hex = this.text.slice(this.pos, this.pos + 4);
      if (!/^[0-9A-Fa-f]{0,4}$/.test(hex)) throw new SyntaxError(`bad unicode escape at ${this.pos}`);
      this.pos += hex.length;
      return hex.length === 4 ? String.fromCharCode(Number.parseInt(hex, 16)) : `u${hex}`;
    }
    const decoded = ESCAPES[escaped];
    if (decoded === undefined) throw new SyntaxError(`bad escape at ${this.pos - 1}`);
    return decoded;
  }

  private parseNumber(): number {
    NUMBER_PREFIX.lastIndex = this.pos;
    const literal = NUMBER_PREFIX.exec(this.text)?.[0] ?? "";
    if (/^-?0\d/.test(literal)) throw new SyntaxError(`bad number at ${this.pos}`);
    this.pos += literal.length;
    if (literal === "-") return -0;
    const value = Number.parseFloat(literal);
    if (Number.isNaN(value)) throw new SyntaxError(`bad number at ${this.pos}`);
    return value;
  }
}

const LITERALS: ReadonlyArray<readonly [string, unknown]> = [
  ["null", null],
  ["true", true],
  ["false", false],
];

/** The longest prefix that a JSON number (possibly cut off) can have; sticky, read at `lastIndex`. */
const NUMBER_PREFIX = /-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?/y;
