/**
 * libs/frontier is imported by the gateway-side coordinator: it stays pure — no I/O, no framework, no worker lib,
 * no browser — and this fails the day one of its files imports anything else.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ALLOWED = new Set(['#contracts', 'tldts', 'safe-regex2', 'robots-parser', 'htmlparser2', 'node:zlib', 'node:crypto']);
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

describe('libs/frontier', () => {
  it('imports only #contracts, its parsing libraries and pure Node built-ins', () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const offenders = readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))
      .flatMap((name) => [...readFileSync(path.join(dir, name), 'utf8').matchAll(IMPORT)].map((m) => `${name} → ${m[1]}`))
      .filter((edge) => {
        const spec = edge.split(' → ')[1];
        return !spec.startsWith('./') && !ALLOWED.has(spec);
      });
    expect(offenders).toEqual([]);
  });
});
