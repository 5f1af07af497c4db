/**
 * The container set-up, checked without a Docker engine: the Dockerfile's stages, the build context's exclusions,
 * the build steps deploy/build-check.sh runs, and docker-compose.yml parsed (anchors and merge keys resolved) with
 * each Trawl service's settings fed through the real config schema.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { loadConfig } from '#config';
import { REPO_ROOT } from '../support/env.js';
import { toolPresent } from '../support/requires.js';

const WORKER_KINDS = ['worker-http', 'worker-render', 'worker-headful'] as const;
const read = (file: string) => readFileSync(`${REPO_ROOT}/${file}`, 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  profiles?: string[];
  restart?: string;
  shm_size?: string;
  ports?: string[];
}
const compose = yaml.load(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
const services = compose.services;

/** Compose's `${VAR:-default}` / `${VAR}` with an empty environment: what a bare `docker compose up` gets. */
const interpolate = (value: string) => value.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_m, _name, fallback?: string) => fallback ?? '');
const trawlServices = Object.entries(services).filter(([, s]) => s.command?.[0] === 'node');

describe('deploy/Dockerfile', () => {
  const dockerfile = read('deploy/Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.find((s) => /AS runtime/i.test(s.split('\n')[0]))!;

  it('builds in one stage and runs from a slim Debian bookworm stage on an LTS Node', () => {
    expect(stages.map((s) => s.split('\n')[0].trim())).toEqual([
      expect.stringMatching(/bookworm-slim AS build$/),
      expect.stringMatching(/bookworm-slim AS runtime$/),
    ]);
    const node = Number(/^ARG NODE_VERSION=(\d+)$/m.exec(dockerfile)?.[1]);
    expect(node % 2).toBe(0); // even majors are the LTS lines
    expect(node).toBeGreaterThanOrEqual(24); // 20 is past end of life, 22 in maintenance
  });

  it('ships Chromium, Xvfb and fonts, runs as the non-root user who owns /app and DATA_DIR', () => {
    expect(runtime).toMatch(/apt-get install[^]*\bchromium\b[^]*\bxvfb\b[^]*\bfonts-/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/chown node:node \/app \/data/);
    expect(runtime).toMatch(/ENV [^\n]*DATA_DIR=\/data/);
    expect(runtime).not.toMatch(/npm (ci|install)/); // dependencies come pruned from the build stage
    expect(runtime).toMatch(/^HEALTHCHECK [^]*\/health/m);
  });

  it('keeps secrets, history, local data and build output out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['.env', '.git', 'node_modules', 'dist', '.trawl-data']) expect(ignored).toContain(entry);
    // …but not what the build needs.
    for (const needed of ['package-lock.json', 'prisma', 'deploy', 'scripts']) expect(ignored).not.toContain(needed);
  });

  it('has the build steps build-check.sh replays: npm ci on the lock, generate offline, build, prune', () => {
    const printed = execFileSync('bash', [`${REPO_ROOT}/deploy/build-check.sh`, '--print'], { encoding: 'utf8' });
    const steps = printed.split('\n').filter((l) => l.startsWith('RUN ')).map((l) => l.slice(4));
    expect(steps).toEqual([
      expect.stringMatching(/^npm ci\b/),
      expect.stringMatching(/^PRISMA_SCHEMA_ENGINE_BINARY=\/bin\/true npx --no-install prisma generate$/),
      'npm run build',
      expect.stringMatching(/^npm prune --omit=dev\b/),
    ]);
    const needs = printed.split('\n').filter((l) => l.startsWith('NEEDS ')).map((l) => l.slice(6));
    expect(needs).toEqual(expect.arrayContaining(['/src/node_modules', '/src/dist', '/src/prisma', '/src/package.json']));
  });
});

describe('docker-compose.yml', () => {
  it('has Postgres, Redis, a one-shot migration, the gateway and every worker kind', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'gateway', ...WORKER_KINDS]));
    expect(services.migrate.command).toEqual(['node', 'dist/apps/cli/src/main.js', 'migrate']);
    expect(services.migrate.restart).toBe('no');
    for (const kind of WORKER_KINDS) {
      expect(services[kind].command).toEqual(['node', `dist/apps/${kind}/src/main.js`]);
      expect(existsSync(`${REPO_ROOT}/apps/${kind}/src/main.ts`)).toBe(true);
    }
    expect(services.gateway.command).toEqual(['node', 'dist/apps/gateway/src/main.js']);
  });

  it('starts the gateway and the workers only after the migration succeeded on a healthy Postgres and Redis', () => {
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of ['gateway', ...WORKER_KINDS]) {
      expect(services[name].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('health-checks every long-running service: Postgres, Redis, the gateway (image) and each worker (its heartbeat)', () => {
    expect(services.postgres.healthcheck?.test).toContain('pg_isready');
    expect(services.redis.healthcheck?.test).toContain('ping');
    expect(services.gateway.healthcheck).toBeUndefined(); // the image's HEALTHCHECK on /health applies
    for (const kind of WORKER_KINDS) {
      expect(services[kind].healthcheck?.test).toEqual(['CMD', 'node', 'dist/scripts/worker-probe.js', kind]);
    }
    expect(existsSync(`${REPO_ROOT}/scripts/worker-probe.ts`)).toBe(true);
    expect(services['worker-render'].shm_size).toBeDefined();
    expect(services['worker-headful'].shm_size).toBeDefined();
  });

  it('starts without ADMIN_TOKEN (no service sets one, none requires one) and every process accepts its settings', () => {
    expect(services.gateway.environment?.ADMIN_TOKEN).not.toMatch(/:\?/);
    for (const [name, service] of trawlServices) {
      const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      const config = loadConfig(env);
      expect({ name, admin: config.ADMIN_TOKEN, db: config.DATABASE_URL, redis: config.REDIS_URL }).toEqual({
        name,
        admin: undefined,
        db: 'postgresql://trawl:trawl@postgres:5432/trawl',
        redis: 'redis://redis:6379',
      });
    }
  });

  it('offers SearXNG behind a profile, configured for the JSON API Trawl reads', () => {
    expect(services.searxng.profiles).toEqual(['searxng']);
    const settings = yaml.load(read('deploy/searxng/settings.yml')) as { search: { formats: string[] } };
    expect(settings.search.formats).toContain('json');
  });

  const hasComposePlugin = toolPresent((() => {
    try {
      execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })(), '`docker compose config -q`', 'the docker compose plugin is not installed');
  (hasComposePlugin ? it : it.skip)('passes `docker compose config -q`', () => {
    execFileSync('docker', ['compose', '-f', `${REPO_ROOT}/docker-compose.yml`, 'config', '-q'], { stdio: 'pipe' });
  });
});
