import { InvalidArgumentError } from "../../shared/index.js";
import { getTextAtPath } from "./paths.js";
import type { IndexConfig, PutOperation } from "./types.js";

/** An embedding with its Euclidean norm, computed once. */
export interface StoredVector {
  vector: readonly number[];
  norm: number;
}

/**
 * An embedding as stored. Its length is not checked against the index's `dims`, which
 * LangGraph.js's InMemoryStore does not check either (a fake embedding of 4 numbers works with
 * `dims: 1536`); vectors of different lengths are compared on the indices they share.
 */
function toStored(vector: unknown): StoredVector {
  if (!Array.isArray(vector)) {
    throw new InvalidArgumentError(
      `The embeddings returned ${vector === null ? "null" : typeof vector} instead of a vector (an array of numbers).`,
    );
  }
  let sum = 0;
  for (const x of vector as number[]) sum += x * x;
  return { vector: vector as number[], norm: Math.sqrt(sum) };
}

/** The texts of a put to embed: its `index` paths, else the index's `fields`, else the whole value. */
function textsOf(config: IndexConfig, op: PutOperation): string[] {
  if (op.value === null || op.index === false) return [];
  const fields = op.index ?? config.fields ?? ["$"];
  return fields.flatMap((field) => getTextAtPath(op.value, field));
}

/**
 * Embeds the indexed fields of each put in one `embedDocuments` call, each distinct text once
 * (in the order texts first appear); puts with no text get none.
 */
export async function embedPuts(
  config: IndexConfig,
  puts: readonly PutOperation[],
): Promise<Map<PutOperation, StoredVector[]>> {
  const owners: [PutOperation, number][] = [];
  const slots = new Map<string, number>();
  const texts: string[] = [];
  for (const op of puts) {
    for (const text of textsOf(config, op)) {
      let slot = slots.get(text);
      if (slot === undefined) {
        slot = texts.length;
        slots.set(text, slot);
        texts.push(text);
      }
      owners.push([op, slot]);
    }
  }
  const out = new Map<PutOperation, StoredVector[]>();
  if (texts.length === 0) return out;
  const vectors = await config.embeddings.embedDocuments(texts);
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    const count = Array.isArray(vectors) ? vectors.length : 0;
    const missing = count < texts.length ? `No embedding found for text: ${texts[count]}. ` : "";
    throw new InvalidArgumentError(
      `${missing}embedDocuments() returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${texts.length} texts; it must return one vector per text.`,
    );
  }
  const stored = vectors.map((vector) => toStored(vector));
  for (const [op, slot] of owners) {
    const list = out.get(op) ?? [];
    list.push(stored[slot] as StoredVector);
    out.set(op, list);
  }
  return out;
}

/** Embeds each distinct query once. */
export async function embedQueries(
  config: IndexConfig,
  queries: Iterable<string>,
): Promise<Map<string, StoredVector>> {
  const out = new Map<string, StoredVector>();
  for (const query of new Set(queries)) {
    out.set(query, toStored(await config.embeddings.embedQuery(query)));
  }
  return out;
}

/** The best cosine similarity between a query and an item's vectors; undefined when it has none. */
export function similarity(
  query: StoredVector,
  vectors: readonly StoredVector[] | undefined,
): number | undefined {
  if (vectors === undefined || vectors.length === 0) return undefined;
  let best = Number.NEGATIVE_INFINITY;
  for (const { vector, norm } of vectors) {
    let dot = 0;
    const length = Math.min(vector.length, query.vector.length);
    for (let i = 0; i < length; i++) dot += (vector[i] as number) * (query.vector[i] as number);
    const score = norm === 0 || query.norm === 0 ? 0 : dot / (norm * query.norm);
    if (score > best) best = score;
  }
  return best;
}
