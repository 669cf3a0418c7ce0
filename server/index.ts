/** Public entry of the package: the factory and its types. */
export { createEmulator } from './emulator.js';
export { startEmulator } from './harness.js';
export type { EmulatorHandle, StartOptions } from './harness.js';
export { redirectFetch, useEmulatorFetch, SERVICE_BASE_URL } from './clients.js';
export type { Delivery, DeliveryAttempt } from './webhooks/delivery.js';
export type { LoggedRequest } from './http/request-log.js';
export type { Emulator, OrganizationInfo, RunningInfo } from './emulator.js';
export type { EmulatorOptions, EmulatorConfig } from './config.js';
export type { StoreData, Organization, Post, Author, Term } from './store/schema.js';
