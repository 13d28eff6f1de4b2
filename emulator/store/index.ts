// Public entry of the emulator store: types, createStore, and the pieces the server may reuse.
export type {
  Account,
  ChangeEvent,
  ChangeListener,
  CollectionQuery,
  CollectionResult,
  CreateStoreOptions,
  EmulatorClock,
  EmulatorStore,
  FilterCondition,
  FilterOp,
  Id,
  InsertOptions,
  Row,
  Table,
  TableName,
} from './types';
export { TABLE_NAMES } from './types';
export { createStore } from './create-store';
export { createClock, formatDateTime, DEFAULT_NOW } from './clock';
