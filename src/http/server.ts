import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteHandlerMethod } from 'fastify';
import { fail } from '../errors/index.js';
import { parseJson } from '../json/index.js';
import {
  createLogger,
  jsonString,
  lazyChild,
  LineFields,
  TRACING_OFF,
  writeLine,
  type Activity,
  type Logger,
  type Metrics,
  type Tracing,
} from '../observability/index.js';
import { holdService, TO_ICEFRONT, type Readiness, type RequestRoute, type Service, type ServiceHolder } from '../service/index.js';
import { accessLineFields, accessLineMembers } from './access-line.js';
import { accessOf, authorize, authorizeBody, authorizesBody, OPEN_PATHS, type AccessContext, type AuthOptions } from './access.js';
import { catalogRoutes, readCatalogPath, type RouteContext, type RouteHandler } from './catalog-routes.js';
import { writeRoutes } from './write-routes.js';
import { viewRoutes } from './view-routes.js';
import { clientErrorResponse, methodNotAllowed, sendError } from './error-response.js';
import { sendJson } from './reply.js';
import { loggedUrl, rawPath } from './request-params.js';
import { createOrigin, type Origin, type OriginOptions } from './origin.js';
import { LEGACY_SIGNER_ENDPOINT, LEGACY_SIGNER_ROUTE, legacySignerRoute } from './legacy-signer.js';
import { sendReadiness } from './readyz.js';
import { createPassThrough, type PassThrough } from './proxy/index.js';
import { toUpstream } from './upstream-routes.js';
import { assertJsonDepth, readBody, rememberRawBody } from './read-body.js';
import { ALL_METHODS, SPEC_PATHS, servedMethod, toRouterPath, type HttpMethod, type SpecPath } from './spec-paths.js';
import { tokenRoute } from './token-route.js';
import { inRequestContext, startRequestSpan } from './request-trace.js';
import { requestSlot } from './request-slot.js';
import { auditLogger } from './audit-line.js';
import { responseRecorder } from './request-record.js';
import { statusPageRoute } from './ui/status-page.js';
import { clientCertificateRefusal, secureOptions } from './tls.js';
import type { ServerTlsConfig } from '../config/index.js';

export interface BuildServerOptions {
  /**
   * The service requests are answered with; a holder when it may be swapped while serving (a
   * config reload): each request then keeps the service it started with until it ends.
   */
  readonly service: Service | ServiceHolder;
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
  /** Request spans (request-trace.ts); absent: none recorded, callers' trace context still passed on. */
  readonly tracing?: Tracing;
  /** `server.tls`: served over HTTPS, client certificates asked for when it names a CA. */
  readonly tls?: ServerTlsConfig;
  /** Served at GET /readyz (background upstream checks); no /readyz without it. */
  readonly readiness?: Pick<Readiness, 'report'>;
  /** Recent work for the status page at GET / (served only with it). */
  readonly activity?: Activity;
}

/** Long enough for deeply nested namespaces with long level names; beyond it → 400. */
const MAX_PATH_SEGMENT = 16 * 1024;
const HEALTH: SpecPath = { path: '/healthz', methods: ['GET'] };
const METRICS: SpecPath = { path: '/metrics', methods: ['GET'] };
const TOKEN_PATH = '/v1/oauth/tokens';
const READY: SpecPath = { path: '/readyz', methods: ['GET'] };

/** What is built once per service: its route handlers (they close over it). */
interface Generation {
  readonly handlers: ReadonlyMap<string, RouteHandler>;
  readonly signer: RouteHandlerMethod;
}
const STATUS_PAGE: SpecPath = { path: '/', methods: ['GET'] };

/** The fastify app serving the REST catalog read API. It does not listen; the caller does. */
export function buildServer(options: BuildServerOptions): FastifyInstance {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const tls = options.tls;
  const app = Fastify({
    ...(tls && { https: secureOptions(tls) }),
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimit,
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    genReqId: requestId,
    // the request's child logger (bound to its id) is made only if a line is written through it
    childLoggerFactory: (parent, bindings) => lazyChild(parent as Logger, bindings),
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
  const readiness = options.readiness;
  const activity = options.activity;
  const paths = [...SPEC_PATHS, HEALTH, ...(readiness ? [READY] : []), ...(metrics ? [METRICS] : []), ...(activity ? [STATUS_PAGE] : [])];
  const services = 'enter' in options.service ? options.service : holdService(options.service);
  const started = requestSlot<Service>('icefront.service');
  /** The service this request started with (a reload swaps it for later requests only). */
  const serviceOf = (request: FastifyRequest): Service => started.get(request.raw) ?? services.current();
  const specByRoute = new Map(paths.map((spec) => [toRouterPath(spec.path), spec]));
  const specOf = (request: FastifyRequest) => specByRoute.get(request.routeOptions.url ?? '');
  // A request's route (service/request-route.ts) is decided once, in the first hook; the body
  // parsers and the dispatcher only carry it out.
  const routes = requestSlot<RequestRoute>('icefront.route');
  const routeOf = (request: FastifyRequest): RequestRoute => routes.get(request.raw) ?? TO_ICEFRONT;
  const readsBody = (endpoint: string) => options.auth !== undefined && authorizesBody(endpoint);
  // `<served method> <spec path>` per route and method, made once rather than per request
  const endpoints = new Map(paths.map((spec) => [spec, new Map(ALL_METHODS.map((m) => [m as string, `${servedMethod(spec, m)} ${spec.path}`]))]));
  const endpointOf = (request: FastifyRequest): string | undefined => {
    const spec = specOf(request);
    if (spec) return endpoints.get(spec)?.get(request.method);
    return request.routeOptions.url === LEGACY_SIGNER_ROUTE ? LEGACY_SIGNER_ENDPOINT : undefined;
  };
  const underUpstream = (request: FastifyRequest) => routeOf(request).to === 'upstream';
  const upstreamBody = (request: FastifyRequest) => {
    const route = routeOf(request);
    return route.to === 'upstream' && !route.readBody;
  };
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
    // Only the OAuth token route takes a form (RFC 6749 §4.4.2); every other body is JSON, and a
    // client that forgot the header (curl -d sends a form type) is told so, not that its JSON is wrong.
    const type = String(request.headers['content-type'] ?? '');
    if (!type.startsWith('application/x-www-form-urlencoded') || rawPath(request.raw.url ?? '/') !== TOKEN_PATH)
      return done(fail('UNSUPPORTED_MEDIA_TYPE', `Request bodies are JSON: send the header Content-Type: application/json (this request's Content-Type is ${type ? `'${type.slice(0, 100)}'` : 'missing'})`), undefined);
    readBody(payload, options.bodyLimit).then((body) => done(null, body), (err: Error) => done(err, undefined));
  });
  // Callback-style hooks on every request: an async hook costs a promise and a turn per request.
  const tracing = options.tracing ?? TRACING_OFF;
  app.addHook('onRequest', (request, reply, done) => {
    // the first thing a request does: take the service it is answered with, until it closes
    // (one close listener per request does all that ends with it: the service, work in flight)
    const held = services.enter();
    started.set(request.raw, held.service);
    const endpoint = endpointOf(request);
    if (endpoint !== undefined) routes.set(request.raw, held.service.route(endpoint, rawPath(request.raw.url ?? '/'), readsBody));
    if (activity) {
      activity.requestOpened();
      reply.raw.once('close', () => {
        held.leave();
        activity.requestClosed();
      });
    } else reply.raw.once('close', held.leave);
    reply.header('x-request-id', request.id);
    startRequestSpan(tracing, request, reply, specOf(request)?.path);
    // RFC 9112 §3.2: more than one Host field line is a 400 (Node keeps the first and says nothing;
    // a proxy in front may have read the other). A missing Host Node already refuses.
    if (hostLines(request.raw.rawHeaders) > 1) done(fail('BAD_REQUEST', 'A request may carry one Host header, not several (RFC 9112 §3.2)'));
    else done();
  });
  // server.tls.ca-file: a caller without a certificate from it is refused before anything else is done
  if (tls?.ca !== undefined) {
    app.addHook('onRequest', (request, reply, done) => done(clientCertificateRefusal(request.raw.socket as TLSSocket, rawPath(request.raw.url ?? '/'))));
  }
  // One hook before any route: with auth on, every request but the open ones (the probes, the
  // token route, which the provider answers) is authenticated, and its route's requirement checked.
  const auth = options.auth;
  const accessContext: AccessContext | undefined = auth && { auth, configTarget: (warehouse) => services.current().configTarget(warehouse) };
  if (accessContext) {
    app.addHook('onRequest', async (request, reply) => {
      const spec = specOf(request);
      if (spec !== undefined && OPEN_PATHS.has(spec.path)) return;
      const context = { ...accessContext, configTarget: (warehouse: string | undefined) => serviceOf(request).configTarget(warehouse) };
      await authorize(context, request, spec, spec ? servedMethod(spec, request.method) : request.method);
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
  const fixed = new Map<string, RouteHandler>();
  fixed.set(`GET ${HEALTH.path}`, async (ctx) => sendJson(ctx.reply, 200, { status: 'ok' }));
  if (readiness) fixed.set(`GET ${READY.path}`, async (ctx) => sendReadiness(ctx.reply, readiness.report()));
  if (auth?.tokenEndpoint !== undefined) fixed.set(`POST ${TOKEN_PATH}`, tokenRoute(auth.tokenEndpoint));
  if (metrics) fixed.set(`GET ${METRICS.path}`, async (ctx) => ctx.reply.code(200).type(metrics.contentType).send(await metrics.render()));
  const generations = new WeakMap<Service, Generation>();
  const generationOf = (request: FastifyRequest): [Service, Generation] => {
    const service = serviceOf(request);
    let generation = generations.get(service);
    if (!generation) {
      const access = accessContext && { access: accessContext };
      generation = {
        handlers: new Map([
          ...catalogRoutes(service, auth?.tokenEndpoint),
          ...writeRoutes(service),
          ...viewRoutes(service),
          ...fixed,
          ...(activity ? [[`GET ${STATUS_PAGE.path}`, statusPageRoute({ service, activity, authenticated: auth !== undefined })] as const] : []),
        ]),
        signer: legacySignerRoute({ service, passThrough, origin, ...access }).handler,
      };
      generations.set(service, generation);
    }
    return [service, generation];
  };
  // the audit stream: its own logger name, so operators can route it (audit-line.ts)
  const recording = {
    ...(metrics && { metrics }),
    ...(activity && { activity }),
    audit: auditLogger(logger),
    // a request's catalog label: a configured catalog it addressed, else '' (never an unknown prefix)
    catalogOf: (request: FastifyRequest): string => {
      const catalog = accessLineFields(request)?.catalog;
      return typeof catalog === 'string' && serviceOf(request).hasCatalog(catalog) ? catalog : '';
    },
  };
  for (const spec of paths) {
    const onResponse = responseRecorder(recording, spec.path);
    app.route({
      method: [...ALL_METHODS],
      url: toRouterPath(spec.path),
      handler: dispatcher(spec, generationOf, routeOf, passThrough, origin, accessContext, tracing),
      ...(onResponse && { onResponse }),
    });
  }
  app.route({ method: 'POST', url: LEGACY_SIGNER_ROUTE, handler: (request, reply) => generationOf(request)[1].signer.call(app, request, reply) });
  return app;
}

/**
 * One handler per path: the served endpoint when there is one; a spec operation Icefront does
 * not serve → 406 (after the prefix is checked); a method the spec does not define → 405.
 * HEAD on a path whose spec defines GET but no HEAD is answered as GET without the body.
 */
function dispatcher(
  spec: SpecPath,
  generationOf: (request: FastifyRequest) => [Service, Generation],
  routeOf: (request: FastifyRequest) => RequestRoute,
  passThrough: PassThrough,
  origin: Origin,
  access: AccessContext | undefined,
  tracing: Tracing,
) {
  const headAsGet = spec.methods.includes('GET') && !spec.methods.includes('HEAD');
  const allowed = headAsGet ? [...spec.methods, 'HEAD'] : [...spec.methods];
  // the handler key of each method the route takes (ALL_METHODS), made once rather than per request
  const keys = Object.fromEntries(ALL_METHODS.map((m) => [m, `${m} ${spec.path}`])) as Record<HttpMethod, string>;
  return (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined => {
    const result = inRequestContext(request, () => handle(request, reply));
    // answered in this turn (a warm load-table): nothing to hand back, fastify would send it again
    return result === reply ? undefined : (result as Promise<FastifyReply>);
  };
  function handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | FastifyReply {
    const method = servedMethod(spec, request.method) as HttpMethod;
    const [service, { handlers }] = generationOf(request);
    const decided = accessOf(request);
    const ctx: RouteContext = { request, reply, specPath: spec.path, origin, ...(decided && { access: decided }) };
    // what only the body names is authorized now that the body is read
    if (access && decided?.writesOf) authorizeBody(access, request, spec.path);
    const route = routeOf(request);
    const key = keys[method];
    const handler = handlers.get(key);
    if (route.to === 'upstream' && spec.methods.includes(method)) return toUpstream(ctx, route, handler, service, passThrough, tracing);
    if (handler) return handler(ctx);
    if (spec.methods.includes(method)) {
      const prefix = spec.path.includes('{prefix}') ? readCatalogPath(ctx).prefix : undefined;
      service.rejectUnsupported(prefix, `${method} ${spec.path}`);
    }
    const { err, headers } = methodNotAllowed(request.method, allowed);
    return sendError(request, reply, err, headers);
  }
}

/**
 * One access line per request, written when it completes: request id, principal, method, URL
 * (plan ids replaced, loggedUrl), client address, status and duration. It is built here from
 * those values alone, so it goes through a child without redaction: pino's wildcard redaction
 * clones every object of every line, and two redacted lines per request were the largest share
 * of the front door's time after the proxying itself (issue #12 profile); it is written as text
 * (logger.ts writeLine), not walked by pino. Errors keep the request's own logger (its bindings,
 * and redaction). The "incoming request" line is written only at `debug` (for requests that
 * never complete).
 */
class RequestLines extends LogController {
  readonly #access: Logger;

  constructor(root: Logger) {
    super();
    this.#access = root.child({}, { redact: [] });
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request) || !this.#access.isLevelEnabled('debug')) return;
    request.log.debug({ req: { method: request.method, url: loggedUrl(request.raw.url ?? '/'), host: request.host, remoteAddress: request.ip } }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const url = loggedUrl(request.raw.url ?? '/');
    const remoteAddress = request.ip as string | undefined;
    if (error) {
      reply.log.error({ req: { method: request.method, url, remoteAddress }, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime, err: error }, 'request errored');
      return;
    }
    if (!this.#access.isLevelEnabled('info')) return;
    const fields = new LineFields().str('reqId', request.id);
    const bound = accessLineFields(request);
    // formatted once per decoded path a route shares between requests (access-line.ts)
    if (bound) fields.raw(accessLineMembers(bound));
    // the members JSON.stringify would write for { method, url, remoteAddress } (an undefined one left out)
    const address = remoteAddress === undefined ? '' : `,"remoteAddress":${jsonString(remoteAddress)}`;
    fields.raw(`,"req":{"method":${jsonString(request.method)},"url":${jsonString(url)}${address}},"res":{"statusCode":${reply.statusCode}}`).num('responseTime', reply.elapsedTime);
    writeLine(this.#access, 'info', fields, 'request completed');
  }
}

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
