/** Where the test suite finds its real services (scripts/test.sh makes sure they are up). */
export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const REPO_ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
export const MIGRATIONS_DIR = `${REPO_ROOT}/prisma/migrations`;
export const CORPUS_DIR = `${REPO_ROOT}/../shared/corpus`;
