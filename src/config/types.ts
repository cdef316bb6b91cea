/** The validated, frozen configuration. Shapes follow config.example.yaml (the contract). */

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Largest request body accepted, in bytes. */
  readonly bodyLimit: number;
  /** The URL clients reach Icefront at, for URLs Icefront writes into responses; default the listen address. */
  readonly publicUrl?: string;
  /** Peers (addresses or CIDR blocks) whose X-Forwarded-* headers are believed and passed on. */
  readonly trustedProxies?: readonly string[];
  /** Bytes all upstream answers being read may hold at once. */
  readonly upstreamBufferBytes?: number;
  /** On SIGTERM, how long requests in flight may take to finish before they are cut (default in main.ts). */
  readonly shutdownGraceMs?: number;
  /** How often every `rest` upstream's /v1/config is checked for `/readyz` (default in main.ts). */
  readonly readinessIntervalMs?: number;
  /** Serve HTTPS (issue #42 item 3): the files' contents as read when the config was; a reload re-reads them. */
  readonly tls?: ServerTlsConfig;
}

/** `server.tls`: Icefront's certificate chain and key (PEM), and the CAs its callers' certificates must chain to. */
export interface ServerTlsConfig {
  readonly cert: string;
  readonly key: string;
  /** When given, every request but the probes' (/healthz, /readyz) needs a client certificate signed by these CAs. */
  readonly ca?: string;
}

export interface PlanningConfig {
  readonly batchSize: number;
  readonly maxResponseBytes: number;
  /** A page's JSON at most for a caller that takes gzip (`gzip-page-bytes`). */
  readonly gzipPageBytes?: number;
  readonly cacheBytes: number;
  /**
   * A cached value nobody has read for this long is dropped (`cache-idle-seconds`): the planning
   * caches' and the own catalogs' table metadata. 0 keeps values until the budget pushes them out.
   */
  readonly cacheIdleMs?: number;
  readonly tokenSecret?: string;
  /**
   * Planning worker threads: 0 plans on the event loop; absent means one per core (up to 4),
   * so manifest decoding never holds up other requests.
   */
  readonly workers?: number;
}

/** A path-prefix remap: locations starting with `prefix` are read from `dir`. */
export interface LocationRemap {
  readonly prefix: string;
  readonly dir: string;
}

export interface FilesystemCatalogConfig {
  readonly type: 'filesystem';
  readonly name: string;
  /** Absolute directory holding the tables. */
  readonly warehouse: string;
  /** Extra remaps, longest prefix first. */
  readonly locations: readonly LocationRemap[];
  readonly planning: 'on' | 'off';
  /** How long a table's current-metadata choice is reused before its folder is read again (0: every load). */
  readonly refreshMs?: number;
  /** `read-only: true`: every mutation answers 406 (default: writable). */
  readonly readOnly?: boolean;
  /** `metadata-cache-bytes`: the budget of the catalog's parsed table metadata (default 64 MiB). */
  readonly metadataCacheBytes?: number;
}

/** How Icefront authenticates toward an upstream REST catalog. */
export type UpstreamAuth =
  /** The caller's Authorization header goes to this upstream and nowhere else. */
  | { readonly mode: 'forward' }
  /** Icefront's own static token. */
  | { readonly mode: 'bearer'; readonly token: string }
  /** Icefront's own identity through an OAuth2 client-credentials grant. */
  | {
      readonly mode: 'oauth2';
      readonly tokenUrl: string;
      readonly clientId: string;
      readonly clientSecret: string;
      readonly scope?: string;
    }
  /** AWS Signature Version 4 on every request (AWS Glue, S3 Tables), with credentials from AWS's default chain. */
  | {
      readonly mode: 'sigv4';
      /** The service the signature is for: `glue`, `s3tables`, `execute-api`, … */
      readonly signingName: string;
      readonly region: string;
      /** A named profile of the shared config and credentials files. */
      readonly profile?: string;
      /** A role assumed through STS with the chain's credentials. */
      readonly roleArn?: string;
      readonly roleSessionName?: string;
      readonly externalId?: string;
    };

/**
 * Static S3 settings (`storage.s3`): a `rest` catalog's, for reading an upstream's tables when
 * planning locally; a `sql` catalog's, for its S3 warehouse. Without an access key every request
 * is anonymous (nothing is looked up elsewhere).
 */
export interface S3StorageConfig {
  readonly endpoint?: string;
  readonly region: string;
  readonly pathStyle: boolean;
  readonly accessKeyId?: string;
  readonly secretAccessKey?: string;
  readonly sessionToken?: string;
}

/** The planning modes of a `rest` catalog, `auto` resolved. */
export type PlanningMode = 'upstream' | 'upstream-paged' | 'local';

export interface RestCatalogConfig {
  readonly type: 'rest';
  readonly name: string;
  /** The upstream's base URI; `/v1/...` is appended. */
  readonly uri: string;
  /** The upstream's own warehouse name, sent as `?warehouse=` on its /v1/config. */
  readonly warehouse?: string;
  /**
   * Who plans scans: `upstream` (its /plan and /tasks pass through), `upstream-paged` (the
   * upstream's /plan, paged by Icefront's own /tasks), `local` (Icefront's planner over the table
   * metadata). `auto` picks by what the upstream's /v1/config advertises (service/federation.ts).
   */
  readonly planning: PlanningMode | 'auto';
  readonly auth: UpstreamAuth;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** How Icefront's connections to an `https://` upstream (and its token URL) are made; Node's defaults without it. */
  readonly tls?: UpstreamTlsConfig;
  readonly storage?: { readonly s3?: S3StorageConfig; readonly local?: LocalStorageConfig };
  /** Largest upstream answers read into memory, in bytes (larger: 502); defaults in catalogs/rest. */
  readonly limits?: { readonly configBytes?: number; readonly loadTableBytes?: number; readonly maxInFlight?: number; readonly maxQueued?: number };
}

/**
 * A `rest` catalog's `tls` (issue #42): the files' contents as read when the config was (a reload
 * that finds them changed replaces the catalog, and with it its connections).
 */
export interface UpstreamTlsConfig {
  /** PEM CA certificates trusted for this upstream, in place of Node's bundled roots (`ca-file`). */
  readonly ca?: string;
  /** PEM client certificate chain and its key, for an upstream that asks for one (mTLS). */
  readonly cert?: string;
  readonly key?: string;
  /** The name the upstream's certificate must hold (and sent as SNI), when it is not the URI's host. */
  readonly serverName?: string;
}

/** Local files a `rest` catalog's tables may live in (`file:` and absolute locations). */
export interface LocalStorageConfig {
  /** Directories reads are confined to (absolute). */
  readonly roots: readonly string[];
  /** Extra prefix remaps, longest first (their directories are readable too). */
  readonly locations: readonly LocationRemap[];
}

/**
 * A catalog on Iceberg's JDBC catalog schema (issue #40), shared with Java's JdbcCatalog and
 * pyiceberg's SqlCatalog: PostgreSQL (`postgresql://…`) or SQLite (`sqlite:/path.db`).
 */
export interface SqlCatalogConfig {
  readonly type: 'sql';
  readonly name: string;
  /** The database; its password, if any, is never logged. */
  readonly uri: string;
  /** The `catalog_name` column (default: the catalog's key). */
  readonly catalogName: string;
  /**
   * Where new tables go: a local folder as `file:/abs` (created if missing), or `s3://bucket/prefix`
   * (`s3a://`, `s3n://` as written), without a trailing slash.
   */
  readonly warehouseLocation: string;
  /**
   * A local warehouse's folder, absolute: metadata and data are read and written below it and the
   * remap dirs. Absent when the warehouse is on S3.
   */
  readonly warehouseDir?: string;
  /** Remaps to local folders (a local warehouse only; empty for one on S3). */
  readonly locations: readonly LocationRemap[];
  /**
   * How the S3 warehouse is reached (`storage.s3`), present exactly when `warehouseLocation` is on
   * S3; metadata files are written only below `warehouseLocation`. Credentials are required
   * unless `readOnly`.
   */
  readonly s3?: S3StorageConfig;
  readonly planning: 'on' | 'off';
  readonly readOnly?: boolean;
  /** `metadata-cache-bytes`: the budget of the catalog's parsed table metadata (default 64 MiB). */
  readonly metadataCacheBytes?: number;
  /** Java's `jdbc.schema-version`: `V1` migrates a V0 database (adds `iceberg_type`, for views). */
  readonly schemaVersion?: 'V0' | 'V1';
}

export type CatalogConfig = FilesystemCatalogConfig | SqlCatalogConfig | RestCatalogConfig;

/** A static bearer token, known only by the SHA-256 of its text. */
export interface StaticTokenConfig {
  /** Lowercase hex SHA-256 of the token (64 characters). */
  readonly sha256: string;
  readonly principal: string;
  readonly roles: readonly string[];
}

/** JWT bearer tokens from an OIDC provider, verified with its public keys. */
export interface JwtConfig {
  /** Where the provider publishes its keys (exactly one of `jwksUri`, `publicKeyFile`). */
  readonly jwksUri?: string;
  /** A PEM public key (SPKI or X.509 certificate), absolute path. */
  readonly publicKeyFile?: string;
  readonly issuer: string;
  /** The token's `aud` must name one of these. */
  readonly audience: readonly string[];
  /** Claim naming the principal (default `sub`). */
  readonly principalClaim: string;
  /** Claim holding the principal's roles (an array, or a space-separated string); none when unset. */
  readonly rolesClaim?: string;
  /** Accepted `alg` values, all asymmetric; default every RS/PS/ES/EdDSA algorithm. */
  readonly algorithms: readonly string[];
  /** The provider's token endpoint, advertised to clients as `oauth2-server-uri`. */
  readonly tokenEndpoint?: string;
  /** Leeway for `exp` and `nbf`, in seconds. */
  readonly clockToleranceSeconds: number;
  /** Fetching the JWKS takes at most this long. */
  readonly jwksTimeoutMs: number;
  /** A fetched JWKS is reused this long (an unknown `kid` refetches it sooner, at most every 30 s). */
  readonly jwksCacheMs: number;
}

/** What a rule lets its callers do: `write` includes `read`. */
export type Access = 'read' | 'write';

/** One allow rule: who (principals or roles), where (catalogs, optionally namespaces and below), what (access). */
export interface AllowRule {
  /** Principal names; `*` is any authenticated caller. */
  readonly principals: readonly string[];
  readonly roles: readonly string[];
  /** Catalog names; `*` is every catalog. */
  readonly catalogs: readonly string[];
  /** Namespaces (as levels) the rule covers, each with everything below it; undefined: the whole catalog. */
  readonly namespaces?: readonly (readonly string[])[];
  readonly access: Access;
}

/** Who may come in (tokens, jwt) and what they may do (allow, admin roles). */
export interface AuthConfig {
  readonly tokens: readonly StaticTokenConfig[];
  readonly jwt?: JwtConfig;
  /** First match wins; no match → 403. */
  readonly allow: readonly AllowRule[];
  /** Roles that may read operator surfaces (`/metrics`). */
  readonly adminRoles: readonly string[];
  /** Per-principal bounds; absent: none. */
  readonly limits?: PrincipalLimitsConfig;
}

/** `auth.limits`: what one authenticated caller may ask of Icefront. Each bound is off when absent. */
export interface PrincipalLimitsConfig {
  /** Token-bucket refill rate. */
  readonly requestsPerSecond?: number;
  /** Bucket size (requests allowed at once after a quiet spell); defaults to one second's worth (at least 1). */
  readonly burst?: number;
  /** Requests of one principal being answered at once. */
  readonly maxInFlight?: number;
}

export interface TracingConfig {
  /** OTLP/HTTP traces URL, e.g. http://collector:4318/v1/traces. */
  readonly otlpEndpoint?: string;
  readonly serviceName?: string;
  /** Share of new traces recorded, 0–1 (default 1); a caller's sampling decision is followed. */
  readonly sampleRatio?: number;
}

export interface Config {
  /** Absolute path of the file this came from ('' when built in code). */
  readonly source: string;
  readonly server: ServerConfig;
  readonly planning: PlanningConfig;
  readonly catalogs: ReadonlyMap<string, CatalogConfig>;
  readonly logLevel: string;
  /** OpenTelemetry spans; absent (or no endpoint): none are recorded, callers' trace context still propagates. */
  readonly tracing?: TracingConfig;
  /** Absent: authentication is off and every caller is trusted. */
  readonly auth?: AuthConfig;
}
