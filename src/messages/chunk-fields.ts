import type { BaseMessage, BaseMessageFields } from "./base.js";
import { mergeContent, mergeDicts } from "./merge.js";

/**
 * The fields every chunk kind merges the same way: content, both metadata bags, and the
 * first id and name present.
 */
export function mergeCommonChunkFields(left: BaseMessage, right: BaseMessage): BaseMessageFields {
  return {
    content: mergeContent(left.content, right.content),
    additional_kwargs: mergeDicts(left.additional_kwargs, right.additional_kwargs) ?? {},
    response_metadata: mergeDicts(left.response_metadata, right.response_metadata) ?? {},
    id: left.id ?? right.id,
    name: left.name ?? right.name,
  };
}
