export { decodeJsonList, decodeKeyedJson } from "./decode.js";
export { SerializationError } from "./errors.js";
export { registerSerializable, type SerializableType } from "./registry.js";
export {
  defaultSerializer,
  isSyncSerializer,
  JsonPlusSerializer,
  type SerializerProtocol,
  type SyncSerializerProtocol,
} from "./serializer.js";
