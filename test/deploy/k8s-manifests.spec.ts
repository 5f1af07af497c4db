/**
 * deploy/k8s, validated without a cluster: every manifest parses and matches the compact schema of its kind
 * (k8s-schema.ts), the kustomizations reference files that exist, and the manifests agree with the code — one
 * Deployment per worker kind running that kind's entry point, KEDA triggers naming the real BullMQ list keys of each
 * queue under the configured (hash-tagged) REDIS_PREFIX, probes on ports and scripts that exist, requests within
 * limits, PDBs and autoscalers selecting real pods, grace periods longer than the work they let finish, and the
 * ConfigMap + example Secret accepted by the real config schema. When kubectl is present, the production overlay is
 * rendered with kustomize and validated the same way.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueueKeys } from 'bullmq';
import yaml from 'js-yaml';
import { configSchema, loadConfig } from '#config';
import { QueueName } from '#contracts';
import { REPO_ROOT } from '../support/env.js';
import { toolPresent } from '../support/requires.js';
import { quantity, SCHEMAS, type Container, type Deployment, type Job, type ScaledObject } from './k8s-schema.js';

const K8S = `${REPO_ROOT}/deploy/k8s`;
const WORKERS = { 'worker-http': QueueName.http, 'worker-render': QueueName.render, 'worker-headful': QueueName.headful } as const;
type Doc = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [key: string]: any };

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [path.join(dir, e.name)] : [],
  );
const loadDocs = (text: string) => (yaml.loadAll(text) as Doc[]).filter(Boolean);
const manifests = (dir: string) => yamlFiles(dir).filter((f) => path.basename(f) !== 'kustomization.yaml');
const base = manifests(`${K8S}/base`).flatMap((f) => loadDocs(readFileSync(f, 'utf8')));
const byKind = <T = Doc>(docs: Doc[], kind: string) => docs.filter((d) => d.kind === kind) as unknown as T[];
const find = <T = Doc>(docs: Doc[], kind: string, name: string) => {
  const doc = docs.find((d) => d.kind === kind && d.metadata.name === name);
  if (!doc) throw new Error(`no ${kind} ${name}`);
  return doc as unknown as T;
};
const envFile = (file: string) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
const SECRET_EXAMPLE = envFile(`${K8S}/overlays/production/secrets.env.example`);
const configMap = find<{ data: Record<string, string> }>(base, 'ConfigMap', 'trawl-config').data;
const containers = (d: Deployment | Job): Container[] => [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers];

/** Every shape and cross-reference check, for the raw base and for the rendered overlay alike. */
function checkManifests(docs: Doc[]) {
  for (const doc of docs) {
    const schema = SCHEMAS[doc.kind];
    expect({ kind: doc.kind, known: Boolean(schema) }).toEqual({ kind: doc.kind, known: true });
    const parsed = schema.safeParse(doc);
    if (!parsed.success) throw new Error(`${doc.kind} ${doc.metadata?.name}: ${parsed.error.message}`);
  }
  const deployments = byKind<Deployment>(docs, 'Deployment');
  for (const d of deployments) {
    // The selector picks the template's pods; replicas are left to the HPA / KEDA.
    expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
    expect(d.spec.replicas).toBeUndefined();
  }
  for (const workload of [...deployments, ...byKind<Job>(docs, 'Job')]) {
    const volumes = new Set((workload.spec.template.spec.volumes ?? []).map((v) => v.name));
    for (const c of containers(workload)) {
      // One image for every process; each command runs an entry point that exists.
      expect(c.image).toBe(docs === base ? 'trawl' : containers(deployments[0])[0].image);
      const entry = c.command[1];
      expect(c.command[0]).toBe('node');
      expect(existsSync(`${REPO_ROOT}/${entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')}`)).toBe(true);
      for (const key of ['cpu', 'memory'] as const) {
        expect(quantity(c.resources.requests[key])).toBeLessThanOrEqual(quantity(c.resources.limits[key]));
      }
      for (const m of c.volumeMounts ?? []) expect(volumes.has(m.name)).toBe(true);
      // DATA_DIR is a writable volume (the CLI's migrate writes there).
      expect(c.volumeMounts?.map((m) => m.mountPath)).toContain(configMap.DATA_DIR);
      for (const ref of c.envFrom) {
        if ('secretRef' in ref) expect(ref.secretRef.name).toMatch(/^trawl-secrets(-[a-z0-9]+)?$/);
        if ('configMapRef' in ref) expect(ref.configMapRef.name).toMatch(/^trawl-config(-[a-z0-9]+)?$/);
      }
    }
  }
  for (const pdb of byKind(docs, 'PodDisruptionBudget')) {
    expect(deployments.some((d) => JSON.stringify(d.spec.template.metadata.labels).includes(JSON.stringify(pdb.spec.selector.matchLabels).slice(1, -1)))).toBe(true);
  }
  for (const so of byKind<ScaledObject>(docs, 'ScaledObject')) {
    expect(deployments.map((d) => d.metadata.name)).toContain(so.spec.scaleTargetRef.name);
    expect(so.spec.minReplicaCount).toBeLessThanOrEqual(so.spec.maxReplicaCount);
  }
  for (const hpa of byKind(docs, 'HorizontalPodAutoscaler')) {
    expect(deployments.map((d) => d.metadata.name)).toContain(hpa.spec.scaleTargetRef.name);
    expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
  }
}

describe('deploy/k8s', () => {
  it('parses, and every manifest matches the schema of its kind and references what exists', () => {
    expect(base.length).toBeGreaterThan(10);
    checkManifests(base);
  });

  it('lists in each kustomization only files and directories that exist', () => {
    for (const file of yamlFiles(K8S).filter((f) => path.basename(f) === 'kustomization.yaml')) {
      const k = yaml.load(readFileSync(file, 'utf8')) as { resources?: string[] };
      for (const resource of k.resources ?? []) expect(existsSync(path.resolve(path.dirname(file), resource))).toBe(true);
    }
  });

  it('runs every worker kind as its own Deployment on its entry point, scaled by KEDA on its real BullMQ queue keys', () => {
    const prefix = configMap.REDIS_PREFIX;
    for (const [kind, queue] of Object.entries(WORKERS)) {
      const deployment = find<Deployment>(base, 'Deployment', `trawl-${kind}`);
      const main = deployment.spec.template.spec.containers[0];
      expect(main.command).toEqual(['node', `dist/apps/${kind}/src/main.js`]);
      for (const probe of [main.startupProbe, main.livenessProbe, main.readinessProbe]) {
        expect(probe).toMatchObject({ exec: { command: ['node', 'dist/scripts/worker-probe.js', kind] } });
      }
      const keys = new QueueKeys(prefix).getKeys(queue);
      const triggers = find<ScaledObject>(base, 'ScaledObject', `trawl-${kind}`).spec.triggers;
      expect(triggers.map((t) => t.metadata.listName).sort()).toEqual([keys.active, keys.wait].sort());
      for (const t of triggers) {
        // KEDA reads these from the target container's environment: the Secret must define them.
        expect(Object.keys(SECRET_EXAMPLE)).toEqual(expect.arrayContaining([t.metadata.addressFromEnv, t.metadata.passwordFromEnv]));
      }
      // Grace covers a job in hand: a crawl's budget (CRAWL_TIMEOUT_MS) plus shutdown.
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds!).toBeGreaterThan(configSchema.shape.CRAWL_TIMEOUT_MS.parse(undefined) / 1000);
      find(base, 'PodDisruptionBudget', `trawl-${kind}`);
    }
    // Browsers get a real /dev/shm.
    for (const kind of ['worker-render', 'worker-headful']) {
      const mounts = find<Deployment>(base, 'Deployment', `trawl-${kind}`).spec.template.spec.containers[0].volumeMounts ?? [];
      expect(mounts.map((m) => m.mountPath)).toContain('/dev/shm');
    }
  });

  it('exposes METRICS_PORT as the `metrics` port of every Deployment and points the scrape annotations at it', () => {
    for (const d of byKind<Deployment>(base, 'Deployment')) {
      const port = d.spec.template.spec.containers[0].ports?.find((p) => p.name === 'metrics');
      expect(String(port?.containerPort)).toBe(configMap.METRICS_PORT);
      expect(d.spec.template.metadata.annotations?.['prometheus.io/port']).toBe(configMap.METRICS_PORT);
    }
  });

  it('uses a hash-tagged REDIS_PREFIX, so each queue stays in one Redis Cluster slot', () => {
    expect(configMap.REDIS_PREFIX).toMatch(/^\{[^{}]+\}$/);
  });

  it('serves the gateway behind a Service, probes it on its port, scales it on CPU and drains it on shutdown', () => {
    const gateway = find<Deployment>(base, 'Deployment', 'trawl-gateway');
    const container = gateway.spec.template.spec.containers[0];
    expect(container.command).toEqual(['node', 'dist/apps/gateway/src/main.js']);
    const http = container.ports!.find((p) => p.name === 'http')!;
    expect(String(http.containerPort)).toBe(configMap.PORT);
    const service = find(base, 'Service', 'trawl-gateway');
    expect(gateway.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(service.spec.ports[0].targetPort).toBe('http');
    expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/health', port: 'http' } });
    expect(container.livenessProbe).toMatchObject({ tcpSocket: { port: 'http' } });
    const hpa = find(base, 'HorizontalPodAutoscaler', 'trawl-gateway');
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    const preStop = Number(container.lifecycle!.preStop.exec.command[1]);
    expect(gateway.spec.template.spec.terminationGracePeriodSeconds!).toBeGreaterThan(preStop + Number(configMap.REQUEST_DEADLINE_MS) / 1000);
    find(base, 'PodDisruptionBudget', 'trawl-gateway');
  });

  it('migrates before anything runs: a Job, and the same idempotent command as every Deployment’s init container', () => {
    const job = find<Job>(base, 'Job', 'trawl-migrate');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'dist/apps/cli/src/main.js', 'migrate']);
    for (const d of byKind<Deployment>(base, 'Deployment')) {
      expect(d.spec.template.spec.initContainers?.map((c) => c.command)).toEqual([['node', 'dist/apps/cli/src/main.js', 'migrate']]);
    }
  });

  it('configures every process with values the config schema accepts, secrets coming from the Secret', () => {
    const config = loadConfig({ ...configMap, ...SECRET_EXAMPLE });
    expect(config.REDIS_PREFIX).toBe(configMap.REDIS_PREFIX);
    for (const secret of ['DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN', 'PROXIES']) {
      expect(Object.keys(configMap)).not.toContain(secret);
      expect(Object.keys(SECRET_EXAMPLE)).toContain(secret);
    }
  });

  const hasKubectl = toolPresent((() => {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })(), 'the kustomize render of the production overlay', 'kubectl is not on PATH');
  (hasKubectl ? it : it.skip)('renders the production overlay with kustomize into manifests that pass the same checks', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'trawl-k8s-'));
    try {
      cpSync(K8S, `${work}/k8s`, { recursive: true });
      cpSync(`${K8S}/overlays/production/secrets.env.example`, `${work}/k8s/overlays/production/secrets.env`);
      const rendered = loadDocs(execFileSync('kubectl', ['kustomize', `${work}/k8s/overlays/production`], { encoding: 'utf8' }));
      checkManifests(rendered);
      for (const doc of rendered.filter((d) => d.kind !== 'Namespace')) expect(doc.metadata.namespace).toBe('trawl');
      const images = new Set(byKind<Deployment>(rendered, 'Deployment').flatMap((d) => containers(d).map((c) => c.image)));
      expect([...images]).toEqual([expect.stringMatching(/^[^:]+:\d+\.\d+\.\d+$/)]); // one pinned image
      expect(find<ScaledObject>(rendered, 'ScaledObject', 'trawl-worker-http').spec.maxReplicaCount).toBe(40);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
