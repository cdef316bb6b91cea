import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { fail } from '../errors/index.js';
import { parseJson } from '../iceberg/index.js';
import { createLogger, type Activity, type Logger, type Metrics, type UpstreamObserver } from '../observability/index.js';
import { PLANNING_ENDPOINTS, type Service } from '../service/index.js';
import { accessLineFields } from './access-line.js';
import { accessOf, authorize, authorizeBody, authorizesBody, OPEN_PATHS, type AccessContext, type AuthOptions } from './access.js';
import { callerOf, catalogRoutes, readCatalogPath, type RouteContext, type RouteHandler } from './catalog-routes.js';
import { clientErrorResponse, methodNotAllowed, sendError } from './error-response.js';
import { sendJson } from './reply.js';
import { loggedUrl, rawPath } from './request-params.js';
import { createOrigin, type Origin, type OriginOptions } from './origin.js';
import { legacySignerRoute } from './legacy-signer.js';
import { createPassThrough, type PassThrough } from './proxy/index.js';
import { forwardToUpstream, upstreamPrefixOf } from './upstream-routes.js';
import { assertJsonDepth, readBody, rememberRawBody } from './read-body.js';
import { ALL_METHODS, SPEC_PATHS, servedMethod, toRouterPath, type HttpMethod, type SpecPath } from './spec-paths.js';
import { tokenRoute } from './token-route.js';
import { auditLogger } from './audit-line.js';
import { responseRecorder } from './request-record.js';
import { statusPageRoute } from './ui/status-page.js';

export interface BuildServerOptions {
  readonly service: Service;
  /** Root logger; each request logs through a child bound to its id (and catalog, namespace, table). */
  readonly logger?: Logger;
  /** Largest request body accepted, in bytes (larger → 413). */
  readonly bodyLimit: number;
  /** Served at GET /metrics, with request durations per route; no /metrics without it. */
  readonly metrics?: Metrics;
  /** `server.public-url` and `server.trusted-proxies` (see origin.ts). */
  readonly origin?: OriginOptions;
  /** Authentication and the allow rules; absent: every caller is trusted. */
  readonly auth?: AuthOptions;
  /** Recent work for the status page at GET / (served only with it). */
  readonly activity?: Activity;
}

/** Long enough for deeply nested namespaces with long level names; beyond it → 400. */
const MAX_PATH_SEGMENT = 16 * 1024;
const HEALTH: SpecPath = { path: '/healthz', methods: ['GET'] };
const METRICS: SpecPath = { path: '/metrics', methods: ['GET'] };
const STATUS_PAGE: SpecPath = { path: '/', methods: ['GET'] };

/** The fastify app serving the REST catalog read API. It does not listen; the caller does. */
export function buildServer(options: BuildServerOptions): FastifyInstance {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit,
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    genReqId: requestId,
    logController: new RequestLines(logger),
    frameworkErrors: (err, request, reply) => void sendError(request, reply, err),
    clientErrorHandler: (err, socket) => {
      if ((err as { code?: string }).code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.end(clientErrorResponse(err as { code?: string }));
      else socket.destroy();
    },
  });

  // Bodies under an upstream catalog are streamed to it unread, except planning bodies, which
  // Icefront may answer itself: those are read like Icefront's own and their text kept, so a
  // forwarded one still carries exactly what the client sent. JSON keeps 64-bit ids exact
  // (snapshot ids exceed 2^53): parsed with the lossless codec.
  // With authentication on, bodies that name what a request changes (create namespace, rename,
  // multi-table commit, S3 signing) are read the same way, to be authorized before forwarding.
  const metrics = options.metrics;
  const activity = options.activity;
  const paths = [...SPEC_PATHS, HEALTH, ...(metrics ? [METRICS] : []), ...(activity ? [STATUS_PAGE] : [])];
  const specByRoute = new Map(paths.map((spec) => [toRouterPath(spec.path), spec]));
  const specOf = (request: FastifyRequest) => specByRoute.get(request.routeOptions.url ?? '');
  const underUpstream = (request: FastifyRequest) => upstreamPrefixOf(request.raw.url ?? '/', options.service) !== undefined;
  const planningBody = (request: FastifyRequest) => /\/(plan|tasks)$/.test(rawPath(request.raw.url ?? '/'));
  const authorizedBody = (request: FastifyRequest) => {
    const spec = specOf(request);
    return options.auth !== undefined && spec !== undefined && authorizesBody(`${servedMethod(spec, request.method)} ${spec.path}`);
  };
  const upstreamBody = (request: FastifyRequest) => underUpstream(request) && !planningBody(request) && !authorizedBody(request);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (upstreamBody(request)) return done(null, undefined);
    readBody(payload, options.bodyLimit).then((body) => {
      rememberRawBody(request.raw, body);
      // Iceberg Java sends DELETE …/plan/{plan-id} with Content-Type: application/json and no
      // body: a bodiless method's empty body is no body, not malformed JSON.
      if (body === '') return BODILESS.has(request.method) ? done(null, undefined) : done(fail('INVALID_JSON', 'Request body is empty but declared as JSON'), undefined);
      try {
        assertJsonDepth(body);
        done(null, parseJson(body));
      } catch (err) {
        done(err as Error, undefined);
      }
    }, (err: Error) => done(err, undefined));
  });
  // Other bodies: streamed to upstreams; form-encoded ones (the deprecated OAuth token route) are
  // read and then refused with 406; anything else is refused.
  app.addContentTypeParser('*', (request, payload, done) => {
    if (upstreamBody(request)) return done(null, undefined);
    // A planning body of another type under an upstream is read (the stream is then spent) and
    // kept, so a forwarded one still carries what the client sent; Icefront's own planner refuses it.
    if (underUpstream(request)) {
      readBody(payload, options.bodyLimit).then((body) => {
        rememberRawBody(request.raw, body);
        done(null, body);
      }, (err: Error) => done(err, undefined));
      return;
    }
    const type = String(request.headers['content-type'] ?? '');
    if (!type.startsWith('application/x-www-form-urlencoded')) return done(fail('UNSUPPORTED_MEDIA_TYPE', `Unsupported request content type: ${type || '(none)'}`), undefined);
    readBody(payload, options.bodyLimit).then((body) => done(null, body), (err: Error) => done(err, undefined));
  });
  if (activity) {
    // work in flight, for the status page: one shared listener, no closure per request
    app.addHook('onRequest', (_request, reply, done) => {
      activity.requestOpened();
      reply.raw.on('close', activity.requestClosed);
      done();
    });
  }
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // RFC 9112 §3.2: more than one Host field line is a 400 (Node keeps the first and says nothing;
    // a proxy in front may have read the other). A missing Host Node already refuses.
    if (hostLines(request.raw.rawHeaders) > 1) throw fail('BAD_REQUEST', 'A request may carry one Host header, not several (RFC 9112 §3.2)');
  });
  // One hook before any route: with auth on, every request but the open ones (liveness, the
  // token route, which the provider answers) is authenticated, and its route's requirement checked.
  const auth = options.auth;
  const accessContext: AccessContext | undefined = auth && { auth, configTarget: (warehouse) => options.service.configTarget(warehouse) };
  if (accessContext) {
    app.addHook('onRequest', async (request, reply) => {
      const spec = specOf(request);
      if (spec !== undefined && OPEN_PATHS.has(spec.path)) return;
      await authorize(accessContext, request, spec, spec ? servedMethod(spec, request.method) : request.method);
      // auth.limits: counted from here until the response closes (streamed answers included).
      const limits = accessContext.auth.limits;
      const principal = accessOf(request)?.principal;
      if (limits && principal) reply.raw.once('close', limits.admit(principal));
      // fastify writes its "request completed" line through reply.log: it names the principal too
      reply.log = request.log;
    });
  }
  app.setErrorHandler((err, request, reply) => sendError(request, reply, err));
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, fail('NOT_FOUND', `No such endpoint: ${request.method} ${rawPath(request.raw.url ?? '/')}`)),
  );

  const passThrough = createPassThrough();
  app.addHook('onClose', async () => passThrough.close());
  const origin = createOrigin(options.origin ?? {});
  const handlers = new Map(catalogRoutes(options.service, auth?.tokenEndpoint));
  handlers.set(`GET ${HEALTH.path}`, async (ctx) => sendJson(ctx.reply, 200, { status: 'ok' }));
  if (auth?.tokenEndpoint !== undefined) handlers.set('POST /v1/oauth/tokens', tokenRoute(auth.tokenEndpoint));
  if (metrics) handlers.set(`GET ${METRICS.path}`, async (ctx) => ctx.reply.code(200).type(metrics.contentType).send(await metrics.render()));
  if (activity) handlers.set(`GET ${STATUS_PAGE.path}`, statusPageRoute({ service: options.service, activity, authenticated: auth !== undefined }));
  // the audit stream: its own logger name, so operators can route it (audit-line.ts)
  const recording = { ...(metrics && { metrics }), ...(activity && { activity }), audit: auditLogger(logger) };
  for (const spec of paths) {
    const onResponse = responseRecorder(recording, spec.path);
    app.route({
      method: [...ALL_METHODS],
      url: toRouterPath(spec.path),
      handler: dispatcher(spec, handlers, options.service, passThrough, origin, accessContext, activity?.upstream),
      ...(onResponse && { onResponse }),
    });
  }
  app.route(legacySignerRoute({ service: options.service, passThrough, origin, ...(accessContext && { access: accessContext }) }));
  return app;
}

/**
 * One handler per path: the served endpoint when there is one; a spec operation Icefront does
 * not serve → 406 (after the prefix is checked); a method the spec does not define → 405.
 * HEAD on a path whose spec defines GET but no HEAD is answered as GET without the body.
 */
function dispatcher(
  spec: SpecPath,
  handlers: ReadonlyMap<string, RouteHandler>,
  service: Service,
  passThrough: PassThrough,
  origin: Origin,
  access: AccessContext | undefined,
  upstreams: UpstreamObserver | undefined,
) {
  const headAsGet = spec.methods.includes('GET') && !spec.methods.includes('HEAD');
  const allowed = headAsGet ? [...spec.methods, 'HEAD'] : [...spec.methods];
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const method = servedMethod(spec, request.method) as HttpMethod;
    const decided = accessOf(request);
    const ctx: RouteContext = { request, reply, specPath: spec.path, origin, ...(decided && { access: decided }), ...(upstreams && { upstreams }) };
    // what only the body names is authorized now that the body is read
    if (access && decided?.writesOf) authorizeBody(access, request, spec.path);
    const upstream = spec.path.includes('{prefix}') ? upstreamPrefixOf(request.raw.url ?? '/', service) : undefined;
    const handler = handlers.get(`${method} ${spec.path}`);
    if (upstream !== undefined && spec.methods.includes(method)) {
      // Icefront plans for upstreams that cannot; everything else goes to the upstream.
      const local = PLANNING.has(`${method} ${spec.path}`) && (await service.federation.servesPlanning(upstream, callerOf(ctx).authorization));
      if (!local || !handler) return forwardToUpstream(ctx, upstream, service, passThrough);
    }
    if (handler) return handler(ctx);
    if (spec.methods.includes(method)) {
      const prefix = spec.path.includes('{prefix}') ? readCatalogPath(ctx).prefix : undefined;
      service.rejectUnsupported(prefix, `${method} ${spec.path}`);
    }
    const { err, headers } = methodNotAllowed(request.method, allowed);
    return sendError(request, reply, err, headers);
  };
}

/**
 * One access line per request, written when it completes: request id, principal, method, URL
 * (plan ids replaced, loggedUrl), client address, status and duration. It is built here from
 * those values alone, so it goes through a child without redaction: pino's wildcard redaction
 * clones every object of every line, and two redacted lines per request were the largest share
 * of the front door's time after the proxying itself (issue #12 profile). Errors keep the
 * request's own logger (its bindings, and redaction). The "incoming request" line is written
 * only at `debug` (for requests that never complete).
 */
class RequestLines extends LogController {
  readonly #access: Logger;

  constructor(root: Logger) {
    super();
    this.#access = root.child({}, { redact: [] });
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request) || !(request.log as Logger).isLevelEnabled('debug')) return;
    request.log.debug({ req: { method: request.method, url: loggedUrl(request.raw.url ?? '/'), host: request.host, remoteAddress: request.ip } }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const req = { method: request.method, url: loggedUrl(request.raw.url ?? '/'), remoteAddress: request.ip };
    if (error) {
      reply.log.error({ req, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime, err: error }, 'request errored');
      return;
    }
    if (!this.#access.isLevelEnabled('info')) return;
    this.#access.info(
      { reqId: request.id, ...accessLineFields(request), req, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}

const PLANNING = new Set<string>(PLANNING_ENDPOINTS);
/** Methods whose requests carry no body in the REST spec. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE']);

function hostLines(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

/** Honours a sane inbound X-Request-Id so logs correlate across proxies; otherwise a UUID. */
function requestId(req: IncomingMessage): string {
  const inbound = req.headers['x-request-id'];
  return typeof inbound === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(inbound) ? inbound : randomUUID();
}
