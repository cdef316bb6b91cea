/** The validated, frozen configuration. Shapes follow config.example.yaml (the contract). */

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Largest request body accepted, in bytes. */
  readonly bodyLimit: number;
}

export interface PlanningConfig {
  readonly batchSize: number;
  readonly maxResponseBytes: number;
  readonly cacheBytes: number;
  readonly tokenSecret?: string;
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
}

export type CatalogConfig = FilesystemCatalogConfig;

export interface Config {
  /** Absolute path of the file this came from ('' when built in code). */
  readonly source: string;
  readonly server: ServerConfig;
  readonly planning: PlanningConfig;
  readonly catalogs: ReadonlyMap<string, CatalogConfig>;
  readonly logLevel: string;
}
