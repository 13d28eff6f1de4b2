// CRM destinations: the interface, the key → CRM id mapping, and the exactly-once upsert helpers.
export * from './crm-connector';
export * from './errors';
export * from './mapping';
export * from './upsert';
export { callLogBody, truncate, BODY_EXCERPT_MAX_CHARS } from './call-log-body';
export {
  RateGate,
  type RateGateOptions,
  type RateLimitSignal,
  type TokenSource,
  type TokenSourceFactory,
} from './rate-gate';
