// Every API route of the emulator, one module file per spec module.
import { apiTokenRoutes } from './api-tokens';
import { authRoutes } from './auth';
import { conversationRoutes } from './conversations';
import { faxFileRoutes } from './fax-files';
import { transactionRoutes } from './transactions';
import { queueAgentRoutes } from './queue-agents';
import { callMeBackRoutes } from './callmeback';
import { callsRoutes } from './calls';
import { customerRoutes } from './customer';
import { historyRoutes } from './history';
import type { RouteDef } from '../route-def';
import { reportsRoutes } from './reports';
import { settingsRoutes } from './settings';
import { storageRoutes } from './storage';

/** All API route definitions (webhook and simulator modules of later issues add theirs here). */
export function emulatorRoutes(): RouteDef[] {
  return [
    ...authRoutes(),
    ...callsRoutes(),
    ...storageRoutes(),
    ...customerRoutes(),
    ...historyRoutes(),
    ...callMeBackRoutes(),
    ...settingsRoutes(),
    ...reportsRoutes(),
    // Beyond the spec: what the platform's own clients use.
    ...apiTokenRoutes(),
    ...queueAgentRoutes(),
    ...faxFileRoutes(),
    ...transactionRoutes(),
    ...conversationRoutes(),
  ];
}

/** 'METHOD /template' of every route the emulator serves, in the spec's template syntax. */
export function emulatorRouteTemplates(): string[] {
  return emulatorRoutes().map((r) => `${r.method} ${r.template}`);
}
