// The emulator's webhooks: registrations, category selection, delivery with faults and a delivery log.
export { categoriesSelect, DTMF_EVENT_NAME, SMS_EVENT_NAME, USER_CONTEXT } from './categories';
export {
  DEFAULT_DELIVERY_SETTINGS,
  WebhookDelivery,
  type DeliveryLogEntry,
  type DeliveryLogFilter,
  type DeliverySettings,
  type EventBody,
} from './delivery';
export { FaultPlan, type DeliveryFaults } from './faults';
export { postJson, withoutCredentials, type PostResult } from './http-post';
export { isLoopbackHost, urlProblem, WebhookRegistry, type Webhook } from './registry';
