/**
 * The Iceberg REST fixture for bench/peer.ts (started by test/interop/harness/rest-fixture.ts,
 * with the bench's JVM options): what its JVM gets, and registering the bench table in it.
 */
import { execFileSync } from 'node:child_process';

/** The heap and collector a JVM started with `jvmOptions` gets (its -XX:+PrintFlagsFinal). */
export function jvmSettings(jvmOptions: readonly string[]): string {
  const out = execFileSync('java', [...jvmOptions, '-XX:+PrintFlagsFinal', '-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const flag = (name: string): string | undefined => new RegExp(`^\\s*\\S+\\s+${name}\\s+:?=\\s+(\\S+)`, 'm').exec(out)?.[1];
  const mib = (name: string): string => `${(Number(flag(name)) / 2 ** 20).toFixed(0)} MiB`;
  const gc = ['UseG1GC', 'UseParallelGC', 'UseSerialGC', 'UseZGC', 'UseShenandoahGC'].find((g) => flag(g) === 'true') ?? 'unknown GC';
  return `${jvmOptions.length ? jvmOptions.join(' ') : 'JVM defaults'}: max heap ${mib('MaxHeapSize')}, initial heap ${mib('InitialHeapSize')}, ${gc.replace(/^Use/, '')}`;
}

/** `POST /v1/namespaces` then `POST /v1/namespaces/{ns}/register` (REST spec: registerTable). */
export async function registerTable(url: string, namespace: string, name: string, metadataLocation: string): Promise<void> {
  const post = async (route: string, body: unknown, ok: (status: number) => boolean): Promise<void> => {
    const res = await fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!ok(res.status)) throw new Error(`POST ${route}: ${res.status} ${text.slice(0, 500)}`);
  };
  await post('/v1/namespaces', { namespace: [namespace] }, (s) => s === 200 || s === 409);
  await post(`/v1/namespaces/${encodeURIComponent(namespace)}/register`, { name, 'metadata-location': metadataLocation }, (s) => s === 200);
}
