/** The client package: the Client interface, its HTTP and in-process implementations, and helpers. */
export type {
  Client, DeleteOptions, ListOptions, PatchOptions, PatchType, UpdateOptions, WatchCallbacks, WatchHandle, WatchOptions, WriteOptions,
} from './client.js';
export { createHttpClient, type HttpClientOptions } from './http-client.js';
export { createInProcessClient, defaultInProcessUser } from './in-process-client.js';
export type { ApiRequest, ApiResponse, RequestHandler, UserInfo, WatchStream } from '../api/request.js';
export { defaultUserAgent, resourcePath } from './request.js';
export { RateLimiter, type RateLimiterOptions } from './rate-limiter.js';
export { isAlreadyExists, isConflict, isExpired, isNotFound, retryOnConflict, StatusError, type RetryOptions } from './retry.js';
export { updateLatest } from './update-latest.js';
