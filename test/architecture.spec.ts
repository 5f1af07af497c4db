/**
 * The shape of the code base, checked on every run: no import cycles between files (what `madge --circular` checks)
 * nor between libs taken as units, no worker or lib importing the gateway app, a gateway whose module graph loads
 * neither a browser nor a worker lib, libs reached only through their package aliases, the gateway's http layer
 * knowing nothing of the compatible APIs built on it, and no async hooks.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './support/env.js';

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'generated' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file an import names, or null for packages. Aliases follow package.json "imports". */
function resolveImport(from: string, spec: string): string | null {
  let target: string;
  if (spec.startsWith('.')) target = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith('#apps/')) target = path.join(REPO_ROOT, 'apps', spec.slice(6));
  else if (spec.startsWith('#test/')) target = path.join(REPO_ROOT, 'test', spec.slice(6));
  else if (spec.startsWith('#')) {
    const [lib, ...rest] = spec.slice(1).split('/');
    target = path.join(REPO_ROOT, 'libs', lib, 'src', rest.length ? rest.join('/') : 'index.js');
  } else return null;
  return target.replace(/\.js$/, '.ts');
}

function graph(files: string[], withTypes = false): Map<string, { spec: string; to: string }[]> {
  const edges = new Map<string, { spec: string; to: string }[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const out: { spec: string; to: string }[] = [];
    for (const m of text.matchAll(IMPORT)) {
      if (m[1] && !withTypes) continue; // type-only imports vanish at runtime
      const to = resolveImport(file, m[2]);
      if (to) out.push({ spec: m[2], to });
    }
    edges.set(file, out);
  }
  return edges;
}

/** Packages a file loads at runtime (bare specifiers, `node:` builtins left out). */
function packagesOf(file: string): string[] {
  const found: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (!m[1] && !m[2].startsWith('.') && !m[2].startsWith('#') && !m[2].startsWith('node:')) found.push(m[2]);
  }
  return found;
}

/** Every file `entry` loads at runtime, following relative and alias imports. */
function reachable(entry: string, edges: Map<string, { to: string }[]>): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const { to } of edges.get(queue.pop()!) ?? []) {
      if (!seen.has(to) && edges.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

/** The lib a runtime file belongs to (`libs/<lib>/src/…`), or null (apps, specs, test helpers). */
function libOf(file: string): string | null {
  const rel = path.relative(REPO_ROOT, file).split(path.sep);
  return rel[0] === 'libs' && rel[2] === 'src' && !file.endsWith('.spec.ts') ? rel[1] : null;
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(edges: Map<string, { to: string }[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!edges.has(to)) continue;
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, idx.get(to)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(REPO_ROOT, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return found;
}

const files = ['apps', 'libs'].flatMap((d) => sourceFiles(path.join(REPO_ROOT, d)));
const edges = graph(files);

/**
 * Folders that must not import others (type-only imports included: a dependency's direction holds for types too).
 * The http layer (error filter, guards, request ids) serves every route: the Firecrawl API plugs into it
 * (ErrorShapes), never the other way round.
 */
const FORBIDDEN_IMPORTS = [{ from: 'apps/gateway/src/http/', not: ['apps/gateway/src/firecrawl/', 'libs/firecrawl/'] }];

/** `file → import` for every import of a FORBIDDEN_IMPORTS folder into one it must not reach. */
function forbiddenImports(importEdges: Map<string, { spec: string; to: string }[]>): string[] {
  return [...importEdges].flatMap(([file, out]) => {
    const rel = path.relative(REPO_ROOT, file);
    const rule = FORBIDDEN_IMPORTS.find((r) => rel.startsWith(r.from));
    if (!rule) return [];
    return out.filter((e) => rule.not.some((dir) => path.relative(REPO_ROOT, e.to).startsWith(dir))).map((e) => `${rel} → ${e.spec}`);
  });
}

/** The libs that make up a worker's runtime: none of them belongs in a gateway process. */
const WORKER_LIBS = ['worker', 'browser', 'fetch', 'extraction', 'serp'];
/** Packages that start or drive a browser: a gateway never loads them. */
const BROWSER_PACKAGES = /^(playwright-core|playwright|puppeteer)(\/|$)/;

describe('architecture', () => {
  it('has no import cycles between files', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('has no cycle between libs taken as units (runtime imports of their src/, specs left out)', () => {
    const libEdges = new Map<string, { to: string }[]>();
    for (const [file, out] of edges) {
      const from = libOf(file);
      if (!from) continue;
      const key = path.join(REPO_ROOT, 'libs', from);
      const list = libEdges.get(key) ?? [];
      for (const e of out) {
        const to = libOf(e.to);
        if (to && to !== from && !list.some((x) => x.to === path.join(REPO_ROOT, 'libs', to))) list.push({ to: path.join(REPO_ROOT, 'libs', to) });
      }
      libEdges.set(key, list);
    }
    expect(cycles(libEdges)).toEqual([]);
  });

  it("keeps a browser and the worker libs out of the gateway's module graph", () => {
    const loaded = [...reachable(path.join(REPO_ROOT, 'apps/gateway/src/main.ts'), edges)];
    const workerFiles = loaded.filter((file) => WORKER_LIBS.includes(libOf(file) ?? '')).map((file) => path.relative(REPO_ROOT, file));
    const browserImports = loaded.flatMap((file) => packagesOf(file).filter((p) => BROWSER_PACKAGES.test(p)).map((p) => `${path.relative(REPO_ROOT, file)} → ${p}`));
    expect({ workerFiles, browserImports }).toEqual({ workerFiles: [], browserImports: [] });
    // The check itself can fail: the standalone process hosts the workers, and its graph reaches both.
    const standalone = [...reachable(path.join(REPO_ROOT, 'apps/standalone/src/main.ts'), edges)];
    expect(standalone.some((file) => libOf(file) === 'worker')).toBe(true);
    expect(standalone.some((file) => packagesOf(file).some((p) => BROWSER_PACKAGES.test(p)))).toBe(true);
  });

  it('keeps the gateway app out of every worker and lib', () => {
    const offenders = [...edges].flatMap(([file, out]) => {
      const rel = path.relative(REPO_ROOT, file);
      if (rel.startsWith('apps/gateway/') || rel.startsWith('apps/standalone/')) return [];
      return out.filter((e) => path.relative(REPO_ROOT, e.to).startsWith('apps/gateway/')).map((e) => `${rel} → ${e.spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it("keeps the gateway's http layer free of the Firecrawl API (its folder and #firecrawl)", () => {
    expect(forbiddenImports(graph(files, true))).toEqual([]);
  });

  it('reaches another lib only through its alias, never by a relative path', () => {
    const offenders = [...edges].flatMap(([file, out]) => {
      const rel = path.relative(REPO_ROOT, file);
      const home = rel.split(path.sep).slice(0, 2).join('/');
      return out
        .filter((e) => e.spec.startsWith('.') && !path.relative(REPO_ROOT, e.to).startsWith(`${home}/`))
        .map((e) => `${rel} → ${e.spec}`);
    });
    expect(offenders).toEqual([]);
  });

  it('runs no async hooks: no AsyncLocalStorage or async_hooks import in the product (on Node 20 one run() taxes every promise after it)', () => {
    const offenders = files
      .filter((file) => !file.endsWith('.spec.ts') && /['"]node:async_hooks['"]|['"]async_hooks['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(REPO_ROOT, file));
    expect(offenders).toEqual([]);
  });
});
