/** Public entry of the package: the factory and its types. */
export { createEmulator } from './emulator.js';
export type { Emulator, OrganizationInfo, RunningInfo } from './emulator.js';
export type { EmulatorOptions, EmulatorConfig } from './config.js';
export type { StoreData, Organization, Post, Author, Term } from './store/schema.js';
