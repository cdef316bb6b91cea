/**
 * Every path of the REST catalog spec (rest-catalog-open-api.yaml `paths`) with the methods it
 * defines. All are routed, so a spec operation Icefront does not serve answers 406
 * UnsupportedOperationException and a method the spec does not define answers 405, never 404.
 */
export interface SpecPath {
  /** Spec template, `{name}` placeholders, as in endpoint strings. */
  readonly path: string;
  readonly methods: readonly HttpMethod[];
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

export const ALL_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

const NS = '/v1/{prefix}/namespaces/{namespace}';
const TABLE = `${NS}/tables/{table}`;

export const SPEC_PATHS: readonly SpecPath[] = [
  { path: '/v1/config', methods: ['GET'] },
  { path: '/v1/oauth/tokens', methods: ['POST'] },
  { path: '/v1/{prefix}/namespaces', methods: ['GET', 'POST'] },
  { path: NS, methods: ['GET', 'HEAD', 'DELETE'] },
  { path: `${NS}/properties`, methods: ['POST'] },
  { path: `${NS}/tables`, methods: ['GET', 'POST'] },
  { path: `${NS}/register`, methods: ['POST'] },
  { path: `${NS}/functions`, methods: ['GET'] },
  { path: `${NS}/functions/{function}`, methods: ['GET'] },
  { path: TABLE, methods: ['GET', 'HEAD', 'POST', 'DELETE'] },
  { path: `${TABLE}/plan`, methods: ['POST'] },
  { path: `${TABLE}/plan/{plan-id}`, methods: ['GET', 'DELETE'] },
  { path: `${TABLE}/tasks`, methods: ['POST'] },
  { path: `${TABLE}/unregister`, methods: ['POST'] },
  { path: `${TABLE}/credentials`, methods: ['GET'] },
  { path: `${TABLE}/sign`, methods: ['POST'] },
  { path: `${TABLE}/metrics`, methods: ['POST'] },
  { path: '/v1/{prefix}/tables/rename', methods: ['POST'] },
  { path: '/v1/{prefix}/transactions/commit', methods: ['POST'] },
  { path: `${NS}/views`, methods: ['GET', 'POST'] },
  { path: `${NS}/views/{view}`, methods: ['GET', 'HEAD', 'POST', 'DELETE'] },
  { path: '/v1/{prefix}/views/rename', methods: ['POST'] },
  { path: `${NS}/register-view`, methods: ['POST'] },
];

/** `/v1/{prefix}/x/{plan-id}` → `/v1/:prefix/x/:planId` (find-my-way syntax). */
export function toRouterPath(specPath: string): string {
  return specPath.replace(/\{([^}]+)\}/g, (_m, name: string) => `:${name.replace(/-(\w)/g, (_d, c: string) => c.toUpperCase())}`);
}

/** The method a request is served as: HEAD on a path whose spec defines GET but no HEAD is answered as GET. */
export function servedMethod(spec: SpecPath, method: string): string {
  return method === 'HEAD' && spec.methods.includes('GET') && !spec.methods.includes('HEAD') ? 'GET' : method;
}
