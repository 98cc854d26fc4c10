export {
  CheckpointConfigError,
  CheckpointCorruptError,
  EncodedCheckpointSaver,
  type MissingConfigField,
  type SaverRetentionOptions,
  type SaverWriteOperation,
  threadIdErrorFor,
  type ValueCodec,
} from "./encoded-saver.js";
export {
  applySplice,
  diffLists,
  LIST_CHAIN_LIMIT,
  LIST_CHAIN_MAX,
  listChainLimit,
  type Splice,
} from "./list-delta.js";
export { MemoryCheckpointStorage } from "./memory-storage.js";
export {
  applyBookkeepingDelta,
  type Bookkeeping,
  type BookkeepingDelta,
  CHECKPOINT_CHAIN_LIMIT,
  type CheckpointRecord,
  diffBookkeeping,
  encodeRecord,
  parseRecord,
  resolveRecord,
} from "./record-delta.js";
export type {
  BlobDbFields,
  BlobKind,
  BlobRow,
  CheckpointListing,
  CheckpointRow,
  CheckpointStorage,
  ItemRow,
  ItemsJson,
  ListQuery,
  MaybePromise,
  StorageBatch,
  WriteRow,
} from "./storage.js";
export {
  BlobRowIndex,
  blobRowOf,
  checkpointKey,
  followSpliceChain,
  writesFingerprint,
  writesUnchanged,
} from "./storage.js";
