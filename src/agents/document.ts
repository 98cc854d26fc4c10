/**
 * What {@link Document} is made from.
 *
 * @example
 * ```ts
 * const input: DocumentInput = { pageContent: "Suzhou is in Jiangsu.", metadata: { source: "atlas" } };
 * ```
 */
export interface DocumentInput<Metadata extends Record<string, unknown> = Record<string, unknown>> {
  pageContent?: string | { toString(): string } | undefined;
  metadata?: Metadata | undefined;
  /** An optional identifier (for example the id in a vector store). */
  id?: string | undefined;
}

/**
 * A piece of text with metadata (LangChain.js `Document` from `@langchain/core/documents`,
 * re-exported by `langchain`): `pageContent` (the given value as a string, `""` when missing),
 * `metadata` (`{}` when missing) and an optional `id`.
 *
 * @example
 * ```ts
 * import { Document } from "agentgraph/agents";
 *
 * const doc = new Document({ pageContent: "Suzhou is in Jiangsu.", metadata: { source: "atlas" }, id: "d1" });
 * doc.pageContent; // "Suzhou is in Jiangsu."
 * ```
 */
export class Document<Metadata extends Record<string, unknown> = Record<string, unknown>> {
  pageContent: string;
  metadata: Metadata;
  id: string | undefined;

  constructor(fields: DocumentInput<Metadata>) {
    this.pageContent = fields.pageContent !== undefined ? fields.pageContent.toString() : "";
    this.metadata = fields.metadata ?? ({} as Metadata);
    this.id = fields.id;
  }
}
