// The call simulator: realistic call traffic with the spec's call events, live calls, CDRs, recordings
// with later transcripts and inbound SMS, real platforms' timing when switched on, and the ledger of what
// it played; plus pure event generators for benchmarks.
export {
  callEventBody,
  generateCallEvents,
  realisticEvents,
  seededWorld,
  smsEventBody,
  type GenerateParams,
  type SimEvent,
} from './events';
export {
  CALL_SCENARIOS,
  DEFAULT_MIX,
  planCall,
  REALISTIC_MIX,
  TRAFFIC_KINDS,
  type CallPlan,
  type CallScenario,
  type PlannedStep,
  type TrafficKind,
} from './plan';
export { CallSimulator, type EventSink } from './simulator';
export {
  DEFAULT_SIMULATOR_CONFIG,
  placeCallBody,
  sendSmsBody,
  simulatorConfigBody,
  type SimulatorConfig,
} from './simulator-config';
export { worldFromStore, type SimWorld } from './world';
export { AudioReadiness } from './audio-readiness';
export type { Ledger, LedgerCall, LedgerSms, LedgerVoicemail } from './ledger';
