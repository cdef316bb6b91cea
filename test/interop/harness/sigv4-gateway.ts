/**
 * The SigV4 verifier (tools/interop/sigv4-gateway.py, issue #42) as a child process: a reverse
 * proxy on 127.0.0.1 with a kernel-chosen port in front of an upstream (the Iceberg REST fixture)
 * that recomputes each request's signature with botocore's own SigV4Auth from the secrets it is
 * given, refuses what does not verify (403, `x-amzn-ErrorType`, AWS JSON protocol body) and
 * forwards the rest unchanged. With `sts`, moto's STS runs in the same process on another port and
 * the credentials it issues (AssumeRoleWithWebIdentity, AssumeRole) are accepted until they expire.
 */
import path from 'node:path';
import { startStdinBoundServer } from './processes.js';
import { REPO, type InteropEnv } from './toolchain.js';

export const SIGV4_GATEWAY_SCRIPT = path.join(REPO, 'tools/interop/sigv4-gateway.py');

export interface StaticKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export interface Sigv4GatewayOptions {
  /** `http://127.0.0.1:<port>` of the server behind the gateway. */
  readonly upstream: string;
  /** The signing name the credential scope must carry (e.g. `glue`). */
  readonly service: string;
  readonly region: string;
  /** Static credentials the gateway knows. */
  readonly keys: readonly StaticKey[];
  /** How far X-Amz-Date may be from the gateway's clock (default 300, as AWS). */
  readonly maxSkewSeconds?: number;
  /** Shifts the gateway's clock (simulates a client whose clock is skewed the other way). */
  readonly clockOffsetSeconds?: number;
  /** Accept `X-Amz-Content-SHA256: UNSIGNED-PAYLOAD` (refused by default). */
  readonly allowUnsignedPayload?: boolean;
  /** Run moto's STS too; `durationSeconds` forces the lifetime of what it issues. */
  readonly sts?: { readonly durationSeconds?: number };
  readonly startTimeoutMs?: number;
}

/** `GET /__gateway/stats`. */
export interface Sigv4GatewayStats {
  /** Requests verified and forwarded. */
  readonly accepted: number;
  /** Refusals by error type (`InvalidSignatureException`, …). */
  readonly refused: Readonly<Record<string, number>>;
  /** Accepted requests by access key id. */
  readonly keys: Readonly<Record<string, number>>;
  /** Requests that reached the payload check with `X-Amz-Content-SHA256: UNSIGNED-PAYLOAD`. */
  readonly unsignedPayload: number;
  readonly sts: {
    readonly assumeRoleWithWebIdentity: number;
    readonly assumeRole: number;
    /** Distinct web identity tokens moto's STS was given, in order. */
    readonly tokens: readonly string[];
  };
}

export interface Sigv4Gateway {
  /** `http://127.0.0.1:<port>`: point a client here instead of at the upstream. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` of moto's STS, with `sts`. */
  readonly stsEndpoint?: string;
  readonly service: string;
  readonly region: string;
  stats(): Promise<Sigv4GatewayStats>;
  /** Zeroes the stats. */
  reset(): Promise<void>;
  /** The gateway's stderr so far: one line per request, the canonical request of every signature mismatch. */
  log(): string;
  close(): Promise<void>;
}

export async function startSigv4Gateway(env: InteropEnv, options: Sigv4GatewayOptions): Promise<Sigv4Gateway> {
  const args = [
    SIGV4_GATEWAY_SCRIPT,
    '--upstream',
    options.upstream,
    '--service',
    options.service,
    '--region',
    options.region,
    ...options.keys.flatMap((k) => ['--key', `${k.accessKeyId}:${k.secretAccessKey}`]),
    ...(options.maxSkewSeconds !== undefined ? ['--max-skew-seconds', String(options.maxSkewSeconds)] : []),
    ...(options.clockOffsetSeconds !== undefined ? ['--clock-offset-seconds', String(options.clockOffsetSeconds)] : []),
    ...(options.allowUnsignedPayload ? ['--allow-unsigned-payload'] : []),
    ...(options.sts ? ['--sts'] : []),
    ...(options.sts?.durationSeconds !== undefined ? ['--sts-duration-seconds', String(options.sts.durationSeconds)] : []),
  ];
  const server = await startStdinBoundServer(env.python, args, 'SigV4 gateway', { startTimeoutMs: options.startTimeoutMs ?? 60_000, errLimit: 64_000 });
  const url = `http://127.0.0.1:${server.port}`;
  const sts = /^STS 127\.0\.0\.1:(\d+)$/m.exec(server.out.toString());
  if (options.sts && !sts) {
    await server.close();
    throw new Error(`SigV4 gateway did not start: no STS line before LISTENING: ${server.out.toString()}`);
  }
  return {
    url,
    ...(sts && { stsEndpoint: `http://127.0.0.1:${sts[1]}` }),
    service: options.service,
    region: options.region,
    stats: async () => {
      const res = await fetch(`${url}/__gateway/stats`);
      if (res.status !== 200) throw new Error(`GET /__gateway/stats: ${res.status}`);
      return (await res.json()) as Sigv4GatewayStats;
    },
    reset: async () => {
      const res = await fetch(`${url}/__gateway/reset`, { method: 'POST' });
      await res.arrayBuffer();
      if (res.status !== 204) throw new Error(`POST /__gateway/reset: ${res.status}`);
    },
    log: () => server.err.toString(),
    close: server.close,
  };
}
