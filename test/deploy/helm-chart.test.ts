/**
 * The Helm chart (deploy/helm/icefront), checked by Helm itself (`helm lint --strict`,
 * `helm template`) and by reading what it renders: probes, preStop and the grace period tied to
 * Icefront's drain, the token secret's Secret reference, the ConfigMap mount (and the config file
 * in it, parsed by Icefront's own config parser), replicas, the PDB, the HPA, the metrics port.
 *
 * `helm lint` checks no Kubernetes schema, so every rendered object is also decoded strictly into
 * its Kubernetes API Go type (tools/deploy/k8s-validate, k8s.io/api): an unknown or misspelt
 * field, or a value of the wrong type, fails.
 *
 * Helm v4 is built from its Go module by tools/deploy/helm.sh (pinned, cached under
 * ~/.cache/icefront/helm/): needs Go; the first build takes minutes, later runs none. Outside CI
 * a missing prerequisite skips with a message, with `CI` set it fails.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config/index.js';
import { missingPrerequisite, onPath, REPO, run, tail } from './helpers.js';

t.setTimeout(25 * 60_000);

const CHART = path.join(REPO, 'deploy/helm/icefront');
const LINT_VALUES = path.join(CHART, 'ci/lint-values.yaml');
const HELM_SH = path.join(REPO, 'tools/deploy/helm.sh');
const VALUES = parseYaml(fs.readFileSync(path.join(CHART, 'values.yaml'), 'utf8')) as {
  replicaCount: number;
  shutdown: { preStopSleepSeconds: number; drainSeconds: number };
  metrics: { portName: string };
};
const LINT = parseYaml(fs.readFileSync(LINT_VALUES, 'utf8')) as { tokenSecret: { value: string } };

/** A rendered Kubernetes object, read loosely. */
type K8s = { kind: string; apiVersion: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: any; data?: any };

let helmBin: Promise<{ bin?: string; why?: string }> | undefined;
/** The pinned Helm, built once per machine (tools/deploy/helm.sh), or why there is none. */
function helm(): Promise<{ bin?: string; why?: string }> {
  helmBin ??= (async () => {
    if (!onPath('bash')) return { why: 'bash' };
    const cached = await run('bash', [HELM_SH], { timeoutMs: 20 * 60_000 });
    if (cached.code === 0) return { bin: cached.stdout.trim().split('\n').at(-1)! };
    if (!onPath('go')) return { why: 'go (tools/deploy/helm.sh builds Helm from its Go module)' };
    return { why: `Helm: tools/deploy/helm.sh exited ${cached.code}:\n${tail(cached.stderr)}` };
  })();
  return helmBin;
}

async function helmOrSkip(t: Test): Promise<string | undefined> {
  const { bin, why } = await helm();
  if (!bin) missingPrerequisite(t, `helm chart test: missing ${why}`);
  return bin;
}

/** `helm template` with the lint values plus `sets`; the objects it renders, or its error. */
async function render(bin: string, args: string[] = []): Promise<{ code: number | null; objects: K8s[]; stderr: string }> {
  const res = await run(bin, ['template', 'rel', CHART, '--namespace', 'lake', ...args], { timeoutMs: 60_000 });
  const objects = res.code === 0 ? parseAllDocuments(res.stdout).map((doc) => doc.toJS() as K8s | null).filter((o): o is K8s => o !== null) : [];
  return { code: res.code, objects, stderr: res.stderr };
}

async function renderOk(t: Test, bin: string, args: string[] = []): Promise<K8s[]> {
  const res = await render(bin, ['-f', LINT_VALUES, ...args]);
  t.equal(res.code, 0, `helm template ${args.join(' ')} renders${res.code === 0 ? '' : `:\n${tail(res.stderr)}`}`);
  return res.objects;
}

const ofKind = (objects: K8s[], kind: string) => objects.filter((o) => o.kind === kind);
const one = (t: Test, objects: K8s[], kind: string): K8s => {
  const found = ofKind(objects, kind);
  t.equal(found.length, 1, `one ${kind}`);
  return found[0] ?? ({ kind, apiVersion: '', metadata: { name: '' }, spec: {}, data: {} } as K8s);
};
const container = (deployment: K8s) => deployment.spec?.template?.spec?.containers?.[0] ?? {};
const subsetOf = (small: Record<string, string> | undefined, big: Record<string, string> | undefined) =>
  !!small && Object.keys(small).length > 0 && Object.entries(small).every(([k, v]) => big?.[k] === v);

t.test('helm lint --strict passes, with and without the optional objects', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const version = await run(bin, ['version', '--short']);
  t.match(version.stdout.trim(), /^v4\.\d+\.\d+/, `Helm v4 (${version.stdout.trim()})`);
  for (const extra of [[], ['--set', 'autoscaling.enabled=true', '--set', 'metrics.serviceMonitor.enabled=true', '--set', 'tokenSecret.existingSecret=mine']]) {
    const lint = await run(bin, ['lint', CHART, '--strict', '-f', LINT_VALUES, ...extra], { timeoutMs: 60_000 });
    t.equal(lint.code, 0, `helm lint --strict ${extra.join(' ')}${lint.code === 0 ? '' : `:\n${tail(lint.stdout + lint.stderr)}`}`);
    t.match(lint.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
  }
});

t.test('the Deployment: probes, preStop, grace period, token secret, ConfigMap, replicas, security', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const objects = await renderOk(t, bin);
  const deployment = one(t, objects, 'Deployment');
  const configMap = one(t, objects, 'ConfigMap');
  const secret = one(t, objects, 'Secret');
  const pod = deployment.spec.template.spec;
  const c = container(deployment);

  t.equal(deployment.spec.replicas, VALUES.replicaCount, 'replicas from values.yaml');
  const five = one(t, await renderOk(t, bin, ['--set', 'replicaCount=5']), 'Deployment');
  t.equal(five.spec.replicas, 5, 'replicas from --set replicaCount=5');

  const http = (c.ports ?? []).find((p: any) => p.name === 'http');
  t.equal(http?.containerPort, 8181, 'container port `http` is 8181, where the image listens');
  t.same(c.livenessProbe?.httpGet, { path: '/healthz', port: 'http' }, 'liveness: GET /healthz');
  t.same(c.readinessProbe?.httpGet, { path: '/readyz', port: 'http' }, 'readiness: GET /readyz');
  t.same(c.startupProbe?.httpGet, { path: '/healthz', port: 'http' }, 'startup: GET /healthz');

  // The config file the pod reads: mounted from the ConfigMap, and valid for Icefront.
  const mount = (c.volumeMounts ?? []).find((m: any) => m.mountPath === '/etc/icefront');
  t.ok(mount, 'a volume mounted at /etc/icefront');
  t.notOk(mount?.subPath, 'mounted as a folder (a subPath would never see ConfigMap updates)');
  const volume = (pod.volumes ?? []).find((v: any) => v.name === mount?.name);
  t.equal(volume?.configMap?.name, configMap.metadata.name, 'that volume is the ConfigMap');
  const args: string[] = c.args ?? [];
  const configPath = args[args.indexOf('--config') + 1];
  t.equal(configPath, '/etc/icefront/config.yaml', '--config names the mounted file');
  t.ok(typeof configMap.data?.['config.yaml'] === 'string', 'the ConfigMap holds config.yaml');
  const configText: string = configMap.data?.['config.yaml'] ?? '';
  const secretValue = crypto.randomBytes(18).toString('base64url');
  const config = parseConfig(configText, '/etc/icefront/config.yaml', { ICEFRONT_TOKEN_SECRET: secretValue });
  t.same([...config.catalogs.keys()].sort(), ['demo', 'lake'], "Icefront's parser accepts the rendered config, with the values' catalogs");
  t.equal(config.planning.tokenSecret, secretValue, 'planning.token-secret comes from ICEFRONT_TOKEN_SECRET');
  const graceMs = config.server.shutdownGraceMs;
  t.equal(graceMs, VALUES.shutdown.drainSeconds * 1000, 'server.shutdown-grace-ms is shutdown.drainSeconds');

  // Stopping: preStop sleep, then the drain, all within terminationGracePeriodSeconds.
  const preStop: string[] = c.lifecycle?.preStop?.exec?.command ?? [];
  t.equal(preStop[0], 'sleep', 'preStop sleeps');
  const sleepSeconds = Number(preStop[1]);
  t.equal(sleepSeconds, VALUES.shutdown.preStopSleepSeconds, 'for shutdown.preStopSleepSeconds');
  t.ok(sleepSeconds > 0 && sleepSeconds <= 15, 'a short sleep');
  const termination = pod.terminationGracePeriodSeconds;
  t.type(termination, 'number');
  t.ok(termination * 1000 > sleepSeconds * 1000 + (graceMs ?? Infinity), `terminationGracePeriodSeconds (${termination} s) > preStop (${sleepSeconds} s) + drain (${graceMs} ms)`);
  t.ok(termination <= 120, 'and not absurdly longer');

  // ICEFRONT_TOKEN_SECRET from the Secret the chart made of tokenSecret.value.
  const env = (c.env ?? []).find((e: any) => e.name === 'ICEFRONT_TOKEN_SECRET');
  const ref = env?.valueFrom?.secretKeyRef;
  t.equal(ref?.name, secret.metadata.name, 'ICEFRONT_TOKEN_SECRET from the rendered Secret');
  t.notOk(ref?.optional, 'not optional: without the Secret the pod does not start (rather than sign nothing)');
  t.notOk('value' in (env ?? {}), 'never a literal value in the pod spec');
  t.equal(Buffer.from(secret.data?.[ref?.key] ?? '', 'base64').toString('utf8'), LINT.tokenSecret.value, 'the Secret holds tokenSecret.value under the referenced key');
  t.notOk(JSON.stringify(deployment).includes(LINT.tokenSecret.value), 'the secret value appears nowhere in the Deployment');

  // Non-root, read-only root filesystem.
  t.equal(pod.securityContext?.runAsNonRoot, true, 'runAsNonRoot');
  t.ok(pod.securityContext?.runAsUser > 0, 'a non-root runAsUser');
  t.equal(c.securityContext?.readOnlyRootFilesystem, true, 'read-only root filesystem');
  t.equal(c.securityContext?.allowPrivilegeEscalation, false, 'no privilege escalation');
  t.ok((c.securityContext?.capabilities?.drop ?? []).includes('ALL'), 'every capability dropped');
  t.equal(pod.automountServiceAccountToken, false, 'no service-account token');
  t.ok(c.resources?.requests?.memory && c.resources?.limits?.memory, 'memory requested and limited');

  t.ok(subsetOf(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels), 'pod labels carry the selector');
});

t.test('shutdown settings stay tied together, and a grace period shorter than the drain fails', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const long = await renderOk(t, bin, ['--set', 'shutdown.drainSeconds=40']);
  const config = parseYaml(one(t, long, 'ConfigMap').data['config.yaml']) as { server: Record<string, number> };
  t.equal(config.server['shutdown-grace-ms'], 40_000, 'drainSeconds=40: shutdown-grace-ms 40000');
  t.equal(one(t, long, 'Deployment').spec.template.spec.terminationGracePeriodSeconds, 5 + 40 + 5, 'and terminationGracePeriodSeconds 50');

  const noSleep = one(t, await renderOk(t, bin, ['--set', 'shutdown.preStopSleepSeconds=0']), 'Deployment');
  t.notOk(container(noSleep).lifecycle, 'preStopSleepSeconds=0: no preStop hook');
  t.equal(noSleep.spec.template.spec.terminationGracePeriodSeconds, 20 + 5, 'and the grace period drops the sleep');

  const short = await render(bin, ['-f', LINT_VALUES, '--set', 'shutdown.terminationGracePeriodSeconds=25']);
  t.not(short.code, 0, 'terminationGracePeriodSeconds = preStop + drain is refused');
  t.match(short.stderr, /terminationGracePeriodSeconds \(25\) must exceed/);
  const explicit = one(t, await renderOk(t, bin, ['--set', 'shutdown.terminationGracePeriodSeconds=60']), 'Deployment');
  t.equal(explicit.spec.template.spec.terminationGracePeriodSeconds, 60, 'a longer one is kept');

  const direct = await render(bin, ['-f', LINT_VALUES, '--set', 'config.server.shutdown-grace-ms=90000']);
  t.not(direct.code, 0, 'config.server.shutdown-grace-ms set directly is refused');
  t.match(direct.stderr, /set shutdown\.drainSeconds instead/);
});

t.test('the config checksum rolls the pods on a config change only', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const checksum = (objects: K8s[]) => one(t, objects, 'Deployment').spec.template.metadata.annotations?.['checksum/config'];
  const base = checksum(await renderOk(t, bin));
  t.match(base, /^[0-9a-f]{64}$/, 'checksum/config on the pod template');
  t.not(checksum(await renderOk(t, bin, ['--set', 'config.catalogs.lake.warehouse=other'])), base, 'a config change changes it');
  t.equal(checksum(await renderOk(t, bin, ['--set', 'replicaCount=7'])), base, 'an unrelated change does not');
  t.equal(checksum(await renderOk(t, bin, ['--set', 'rollOnConfigChange=false'])), undefined, 'rollOnConfigChange=false: none (SIGHUP reloads instead)');
});

t.test('an existing Secret is referenced, and nothing renders without catalogs or a token secret', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const objects = await renderOk(t, bin, ['--set', 'tokenSecret.existingSecret=icefront-token', '--set', 'tokenSecret.key=hmac']);
  t.equal(ofKind(objects, 'Secret').length, 0, 'no Secret created');
  const ref = (container(one(t, objects, 'Deployment')).env ?? []).find((e: any) => e.name === 'ICEFRONT_TOKEN_SECRET')?.valueFrom?.secretKeyRef;
  t.same(ref, { name: 'icefront-token', key: 'hmac' }, 'ICEFRONT_TOKEN_SECRET from the existing Secret and key');

  const bare = await render(bin);
  t.not(bare.code, 0, 'the chart alone (no catalogs) does not render');
  t.match(bare.stderr, /config\.catalogs: name at least one catalog/);
  const noSecret = await render(bin, ['--set', 'config.catalogs.lake.type=rest', '--set', 'config.catalogs.lake.uri=https://lake.example']);
  t.not(noSecret.code, 0, 'no token secret: does not render');
  t.match(noSecret.stderr, /tokenSecret: set tokenSecret\.existingSecret/);
  const weak = await render(bin, ['-f', LINT_VALUES, '--set', 'tokenSecret.value=short']);
  t.not(weak.code, 0, 'a token secret under 16 characters does not render');
  t.match(weak.stderr, /at least 16 characters/);
});

t.test('Service, metrics port, PDB; the HPA and ServiceMonitor only when enabled', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const objects = await renderOk(t, bin);
  const deployment = one(t, objects, 'Deployment');
  const podLabels = deployment.spec.template.metadata.labels;
  const service = one(t, objects, 'Service');
  t.ok(subsetOf(service.spec.selector, podLabels), "the Service selects the Deployment's pods");
  const ports: any[] = service.spec.ports;
  t.match(ports.find((p) => p.name === 'http'), { port: 8181, targetPort: 'http' }, 'Service port http → container port http');
  const metricsPort = ports.find((p) => p.name === VALUES.metrics.portName);
  t.equal(VALUES.metrics.portName, 'metrics', 'the metrics port is named `metrics`');
  t.equal(metricsPort?.targetPort, 'http', '`metrics` reaches the container port serving /metrics');
  t.ok((container(deployment).ports ?? []).some((p: any) => p.name === metricsPort?.targetPort), 'a container port of that name exists');

  const pdb = one(t, objects, 'PodDisruptionBudget');
  t.equal(pdb.apiVersion, 'policy/v1');
  t.ok(subsetOf(pdb.spec.selector.matchLabels, podLabels), "the PDB selects the Deployment's pods");
  t.equal(pdb.spec.maxUnavailable, 1, 'at most one pod disrupted at a time');
  t.equal(ofKind(await renderOk(t, bin, ['--set', 'podDisruptionBudget.enabled=false']), 'PodDisruptionBudget').length, 0, 'no PDB when disabled');

  t.equal(ofKind(objects, 'HorizontalPodAutoscaler').length, 0, 'no HPA by default');
  t.equal(ofKind(objects, 'ServiceMonitor').length, 0, 'no ServiceMonitor by default');

  const scaled = await renderOk(t, bin, ['--set', 'autoscaling.enabled=true', '--set', 'autoscaling.minReplicas=2', '--set', 'autoscaling.maxReplicas=6']);
  const hpa = one(t, scaled, 'HorizontalPodAutoscaler');
  const scaledDeployment = one(t, scaled, 'Deployment');
  t.equal(hpa.apiVersion, 'autoscaling/v2');
  t.same(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: scaledDeployment.metadata.name }, 'the HPA scales the Deployment');
  t.equal(hpa.spec.minReplicas, 2);
  t.equal(hpa.spec.maxReplicas, 6);
  t.ok(hpa.spec.metrics?.some((m: any) => m.resource?.name === 'cpu'), 'on CPU');
  t.notOk('replicas' in scaledDeployment.spec, 'the Deployment leaves replicas to the HPA');

  const monitored = await renderOk(t, bin, ['--set', 'metrics.serviceMonitor.enabled=true']);
  const monitor = one(t, monitored, 'ServiceMonitor');
  t.equal(monitor.apiVersion, 'monitoring.coreos.com/v1');
  t.ok(subsetOf(monitor.spec.selector.matchLabels, one(t, monitored, 'Service').metadata.labels), 'the ServiceMonitor selects the Service');
  t.match(monitor.spec.endpoints?.[0], { port: 'metrics', path: '/metrics' }, 'scrapes /metrics through the named port');
});

t.test('tls.existingSecret: the Secret mounted, server.tls written, probes and the scrape over HTTPS', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const objects = await renderOk(t, bin, [
    '--set', 'tls.existingSecret=icefront-tls',
    '--set', 'tls.clientCertificates=true',
    '--set', 'metrics.serviceMonitor.enabled=true',
    '--set', 'metrics.serviceMonitor.tlsConfig.ca.secret.name=icefront-tls',
    '--set', 'metrics.serviceMonitor.tlsConfig.ca.secret.key=ca.crt',
  ]);
  const deployment = one(t, objects, 'Deployment');
  const c = container(deployment);
  for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) t.equal(c[probe]?.httpGet?.scheme, 'HTTPS', `${probe} over HTTPS`);
  const mount = (c.volumeMounts ?? []).find((m: any) => m.mountPath === '/etc/icefront-tls');
  t.ok(mount && mount.readOnly && !mount.subPath, 'the Secret mounted read-only as a folder at /etc/icefront-tls');
  const volume = (deployment.spec.template.spec.volumes ?? []).find((v: any) => v.name === mount?.name);
  t.equal(volume?.secret?.secretName, 'icefront-tls', 'from tls.existingSecret');
  const config = parseYaml(one(t, objects, 'ConfigMap').data['config.yaml']) as { server: { tls: Record<string, string> } };
  t.same(config.server.tls, { 'cert-file': '/etc/icefront-tls/tls.crt', 'key-file': '/etc/icefront-tls/tls.key', 'ca-file': '/etc/icefront-tls/ca.crt' }, "server.tls names the Secret's files");
  const endpoint = one(t, objects, 'ServiceMonitor').spec.endpoints[0];
  t.equal(endpoint.scheme, 'https');
  t.same(endpoint.tlsConfig, { ca: { secret: { name: 'icefront-tls', key: 'ca.crt' } } }, 'with the TLS config given');

  const plain = one(t, await renderOk(t, bin), 'Deployment');
  t.equal(container(plain).readinessProbe?.httpGet?.scheme, undefined, 'without it, plain HTTP');
  const both = await render(bin, ['-f', LINT_VALUES, '--set', 'tls.existingSecret=x', '--set', 'config.server.tls.cert-file=/a']);
  t.not(both.code, 0, 'config.server.tls and tls.existingSecret together are refused');
  t.match(both.stderr, /config\.server\.tls: set tls\.existingSecret instead/);
});

/** tools/deploy/k8s-validate built into a temp folder (Go's build cache makes a rebuild quick). */
async function validator(t: Test): Promise<string | undefined> {
  if (!onPath('go')) {
    missingPrerequisite(t, 'helm chart test: missing go (tools/deploy/k8s-validate is Go)');
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-k8s-validate-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bin = path.join(dir, 'k8s-validate');
  const build = await run('go', ['-C', path.join(REPO, 'tools/deploy/k8s-validate'), 'build', '-o', bin, '.'], {
    timeoutMs: 10 * 60_000,
    env: { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false' },
  });
  if (build.code !== 0) {
    t.fail(`go build tools/deploy/k8s-validate:\n${tail(build.stderr)}`);
    return undefined;
  }
  return bin;
}

/** Runs the validator on `manifests`. */
function validate(bin: string, manifests: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
    child.stdin.end(manifests);
  });
}

t.test('every rendered object decodes strictly into its Kubernetes API type', async (t) => {
  const bin = await helmOrSkip(t);
  if (!bin) return;
  const check = await validator(t);
  if (!check) return;
  const variants = [
    [],
    ['--set', 'autoscaling.enabled=true', '--set', 'autoscaling.targetMemoryUtilizationPercentage=80', '--set', 'metrics.serviceMonitor.enabled=true', '--set', 'tokenSecret.existingSecret=mine'],
    ['--set', 'tls.existingSecret=icefront-tls', '--set', 'tls.clientCertificates=true'],
    ['--set', 'shutdown.preStopSleepSeconds=0', '--set', 'rollOnConfigChange=false', '--set', 'podDisruptionBudget.maxUnavailable=null', '--set', 'podDisruptionBudget.minAvailable=2'],
  ];
  let lastRender = '';
  for (const extra of variants) {
    const rendered = await run(bin, ['template', 'rel', CHART, '--namespace', 'lake', '-f', LINT_VALUES, ...extra], { timeoutMs: 60_000 });
    t.equal(rendered.code, 0, `helm template ${extra.join(' ')}`);
    const res = await validate(check, rendered.stdout);
    t.equal(res.code, 0, `valid Kubernetes objects: ${extra.join(' ') || 'the lint values'}${res.code === 0 ? '' : `\n${res.out}`}`);
    t.match(res.out, /valid apps\/v1 Deployment\//, 'the Deployment was checked');
    lastRender = rendered.stdout;
  }
  t.match((await validate(check, lastRender)).out, /valid policy\/v1 PodDisruptionBudget\/.*/, 'minAvailable: the PDB was checked');
  const typo = await validate(check, lastRender.replace('readOnlyRootFilesystem', 'readOnlyRootFilesytem'));
  t.equal(typo.code, 1, 'a misspelt field is refused (so the checks above can fail)');
  t.match(typo.out, /unknown field "readOnlyRootFilesytem"/);
});
