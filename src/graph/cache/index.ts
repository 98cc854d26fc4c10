export { BaseCache, type CacheFullKey, type CacheNamespace } from "./base-cache.js";
export { InMemoryCache } from "./memory-cache.js";
