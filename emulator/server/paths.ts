// Spec templates ('GET /cdrs/{id}.trace') are the shared route identifiers; these helpers convert them.

/** HTTP methods the platform's API uses. */
export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A 'METHOD /template' string as the spec writes it. */
export type RouteSpec = `${ApiMethod} /${string}`;

/** The product segment of the base URL. */
export const PRODUCT = 'voipstudio';

/** Version segments the emulator answers: the spec's v1.1, and v1.2 that live clients also send. */
export const API_VERSIONS = ['v1.1', 'v1.2'] as const;

/** Path prefixes under which the API is mounted, e.g. '/v1.1/voipstudio'. */
export const API_PREFIXES: readonly string[] = API_VERSIONS.map((v) => `/${v}/${PRODUCT}`);

/** Splits 'GET /cdrs/{id}' into its method and template. */
export function parseRouteSpec(spec: RouteSpec): { method: ApiMethod; template: string } {
  const space = spec.indexOf(' ');
  return { method: spec.slice(0, space) as ApiMethod, template: spec.slice(space + 1) };
}

/** '/cdrs/{id}.trace' -> '/cdrs/:id.trace' (find-my-way syntax; a param name ends at '.', '/' or '-'). */
export function toRouterPath(template: string): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** A regular expression matching concrete paths of a template (used to tell 405 from 404). */
export function templateRegExp(template: string): RegExp {
  const parts = template
    .split(/(\{[A-Za-z0-9_]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}
