/**
 * A compact schema of the Kubernetes and KEDA kinds deploy/k8s uses, for validating the manifests in Jest without a
 * cluster (the official JSON schemas cannot be downloaded at test time). It covers the fields Trawl sets, rejects
 * unknown keys where a typo would silently be ignored by the API server (containers, probes, pod and object specs),
 * and checks value shapes (quantities, ports, label selectors). Derived from the Kubernetes 1.32 API reference and
 * KEDA 2.x's ScaledObject.
 */
import { z } from 'zod';

const name = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).max(63);
const labels = z.record(z.string(), z.string());
const metadata = z.strictObject({ name, namespace: name.optional(), labels: labels.optional(), annotations: labels.optional() });
const cpu = z.union([z.string().regex(/^\d+(\.\d+)?m?$/), z.number()]);
const memory = z.string().regex(/^\d+(Ki|Mi|Gi|Ti|K|M|G|T)?$/);
const resources = z.strictObject({
  requests: z.strictObject({ cpu, memory }),
  limits: z.strictObject({ cpu, memory }),
});
const port = z.union([z.number().int().min(1).max(65535), name]);
const probeBase = {
  initialDelaySeconds: z.number().int().min(0).optional(),
  periodSeconds: z.number().int().min(1).optional(),
  timeoutSeconds: z.number().int().min(1).optional(),
  failureThreshold: z.number().int().min(1).optional(),
  successThreshold: z.number().int().min(1).optional(),
};
const probe = z.union([
  z.strictObject({ ...probeBase, httpGet: z.strictObject({ path: z.string().startsWith('/'), port }) }),
  z.strictObject({ ...probeBase, tcpSocket: z.strictObject({ port }) }),
  z.strictObject({ ...probeBase, exec: z.strictObject({ command: z.array(z.string()).min(1) }) }),
]);
const envFrom = z.array(
  z.union([
    z.strictObject({ configMapRef: z.strictObject({ name, optional: z.boolean().optional() }) }),
    z.strictObject({ secretRef: z.strictObject({ name, optional: z.boolean().optional() }) }),
  ]),
);
const containerSecurity = z.strictObject({
  allowPrivilegeEscalation: z.literal(false),
  capabilities: z.strictObject({ drop: z.tuple([z.literal('ALL')]) }),
  readOnlyRootFilesystem: z.boolean().optional(),
});
export const containerSchema = z.strictObject({
  name,
  image: z.string().min(1),
  command: z.array(z.string()).min(1),
  args: z.array(z.string()).optional(),
  ports: z.array(z.strictObject({ name, containerPort: z.number().int().min(1).max(65535), protocol: z.enum(['TCP', 'UDP']).optional() })).optional(),
  envFrom,
  resources,
  startupProbe: probe.optional(),
  livenessProbe: probe.optional(),
  readinessProbe: probe.optional(),
  lifecycle: z.strictObject({ preStop: z.strictObject({ exec: z.strictObject({ command: z.array(z.string()).min(1) }) }) }).optional(),
  securityContext: containerSecurity,
  volumeMounts: z.array(z.strictObject({ name, mountPath: z.string().startsWith('/'), readOnly: z.boolean().optional() })).optional(),
});
const volume = z.strictObject({
  name,
  emptyDir: z.strictObject({ medium: z.literal('Memory').optional(), sizeLimit: memory.optional() }),
});
const podSpec = z.strictObject({
  terminationGracePeriodSeconds: z.number().int().min(0).optional(),
  automountServiceAccountToken: z.literal(false),
  restartPolicy: z.enum(['Always', 'OnFailure', 'Never']).optional(),
  securityContext: z.strictObject({
    runAsNonRoot: z.literal(true),
    runAsUser: z.number().int().min(1),
    runAsGroup: z.number().int().min(1),
    fsGroup: z.number().int().min(1),
    seccompProfile: z.strictObject({ type: z.literal('RuntimeDefault') }),
  }),
  initContainers: z.array(containerSchema).optional(),
  containers: z.array(containerSchema).min(1),
  volumes: z.array(volume).optional(),
});
const podTemplate = z.strictObject({ metadata: z.strictObject({ labels, annotations: labels.optional() }), spec: podSpec });
const selector = z.strictObject({ matchLabels: labels });

export const deploymentSchema = z.strictObject({
  apiVersion: z.literal('apps/v1'),
  kind: z.literal('Deployment'),
  metadata,
  spec: z.strictObject({
    replicas: z.number().int().optional(),
    revisionHistoryLimit: z.number().int().optional(),
    selector,
    strategy: z.strictObject({
      type: z.literal('RollingUpdate'),
      rollingUpdate: z.strictObject({ maxSurge: z.union([z.string(), z.number()]), maxUnavailable: z.union([z.string(), z.number()]) }),
    }),
    template: podTemplate,
  }),
});
export const jobSchema = z.strictObject({
  apiVersion: z.literal('batch/v1'),
  kind: z.literal('Job'),
  metadata,
  spec: z.strictObject({
    backoffLimit: z.number().int().min(0),
    ttlSecondsAfterFinished: z.number().int().min(0).optional(),
    template: podTemplate.extend({ spec: podSpec.extend({ restartPolicy: z.enum(['OnFailure', 'Never']) }) }),
  }),
});
export const serviceSchema = z.strictObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Service'),
  metadata,
  spec: z.strictObject({
    type: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer']).optional(),
    selector: labels,
    ports: z.array(z.strictObject({ name, port: z.number().int(), targetPort: port, protocol: z.literal('TCP').optional() })).min(1),
  }),
});
export const hpaSchema = z.strictObject({
  apiVersion: z.literal('autoscaling/v2'),
  kind: z.literal('HorizontalPodAutoscaler'),
  metadata,
  spec: z.strictObject({
    scaleTargetRef: z.strictObject({ apiVersion: z.literal('apps/v1'), kind: z.literal('Deployment'), name }),
    minReplicas: z.number().int().min(1),
    maxReplicas: z.number().int().min(1),
    metrics: z
      .array(
        z.strictObject({
          type: z.literal('Resource'),
          resource: z.strictObject({ name: z.enum(['cpu', 'memory']), target: z.strictObject({ type: z.literal('Utilization'), averageUtilization: z.number().int().min(1).max(100) }) }),
        }),
      )
      .min(1),
    behavior: z.record(z.string(), z.unknown()).optional(),
  }),
});
export const pdbSchema = z.strictObject({
  apiVersion: z.literal('policy/v1'),
  kind: z.literal('PodDisruptionBudget'),
  metadata,
  spec: z.union([z.strictObject({ minAvailable: z.union([z.number(), z.string()]), selector }), z.strictObject({ maxUnavailable: z.union([z.number(), z.string()]), selector })]),
});
export const redisTriggerSchema = z.strictObject({
  type: z.literal('redis'),
  metadata: z.strictObject({
    addressFromEnv: z.string(),
    passwordFromEnv: z.string().optional(),
    listName: z.string(),
    listLength: z.string().regex(/^\d+$/),
    activationListLength: z.string().regex(/^\d+$/).optional(),
  }),
});
export const scaledObjectSchema = z.strictObject({
  apiVersion: z.literal('keda.sh/v1alpha1'),
  kind: z.literal('ScaledObject'),
  metadata,
  spec: z.strictObject({
    scaleTargetRef: z.strictObject({ name }),
    minReplicaCount: z.number().int().min(0),
    maxReplicaCount: z.number().int().min(1),
    pollingInterval: z.number().int().min(1).optional(),
    cooldownPeriod: z.number().int().min(0).optional(),
    advanced: z.record(z.string(), z.unknown()).optional(),
    triggers: z.array(redisTriggerSchema).min(1),
  }),
});
export const configMapSchema = z.strictObject({ apiVersion: z.literal('v1'), kind: z.literal('ConfigMap'), metadata, data: z.record(z.string(), z.string()) });
export const secretSchema = z.strictObject({ apiVersion: z.literal('v1'), kind: z.literal('Secret'), metadata, type: z.string().optional(), data: z.record(z.string(), z.string()) });
export const namespaceSchema = z.strictObject({ apiVersion: z.literal('v1'), kind: z.literal('Namespace'), metadata });

export const SCHEMAS: Record<string, z.ZodType> = {
  Deployment: deploymentSchema,
  Job: jobSchema,
  Service: serviceSchema,
  HorizontalPodAutoscaler: hpaSchema,
  PodDisruptionBudget: pdbSchema,
  ScaledObject: scaledObjectSchema,
  ConfigMap: configMapSchema,
  Secret: secretSchema,
  Namespace: namespaceSchema,
};

export type Deployment = z.infer<typeof deploymentSchema>;
export type Container = z.infer<typeof containerSchema>;
export type ScaledObject = z.infer<typeof scaledObjectSchema>;
export type Job = z.infer<typeof jobSchema>;

/** Kubernetes quantities in base units (cores, bytes), to compare requests with limits. */
export function quantity(value: string | number): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|K|M|G|T)?$/.exec(value);
  if (!m) throw new Error(`not a quantity: ${value}`);
  const factor: Record<string, number> = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Number(m[1]) * (m[2] ? factor[m[2]] : 1);
}
