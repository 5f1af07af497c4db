/**
 * `npm run trawl -- <command>`: account administration, migrations, the extraction / SERP parsing tools, and a site
 * crawl through a running Trawl's API. Uses DATABASE_URL, or the embedded Postgres in DATA_DIR (shared with a running
 * `npm start`); `crawl-site` only its API URL and key.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TrawlError } from '#contracts';
import { loadConfig } from '#config';
import { migrate } from '#db';
import { CRAWL_SITE_USAGE, runCrawlSiteCommand } from './crawl-site-command.js';
import { runExtractCommand } from './extract-command.js';
import { runSerpParseCommand } from './serp-parse-command.js';
import { runMapsParseCommand } from './maps-parse-command.js';
import { createLogger, ensureLocalServices } from '#platform';
import { createRedis } from '#platform';
import { ACCOUNT_COMMANDS, ACCOUNTS_USAGE, runAccountsCommand, UsageError } from './accounts-command.js';
import { CONSOLE_USAGE, runConsoleLinkCommand } from './console-command.js';

const io = { stdout: process.stdout, stderr: process.stderr };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const USAGE = `Usage: npm run trawl -- <command> [options]

${ACCOUNTS_USAGE}

${CONSOLE_USAGE}

Tools:
  migrate                                                            apply database migrations
  extract <file-or-url> [--format markdown|enhanced_html|page_text|json] [--converter mdream|turndown]
  serp:parse --engine google|bing|duckduckgo [--type news|images|places|shopping] <file.html[.gz]>
  maps:parse --provider google|osm [--place-id ID] [--cid N] <payload-file[.gz]>

${CRAWL_SITE_USAGE}
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    io.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'extract') return runExtractCommand(args, io);
  if (command === 'serp:parse') return runSerpParseCommand(args, io);
  if (command === 'maps:parse') return runMapsParseCommand(args, io);
  if (command === 'crawl-site') return crawlSite(args);
  const isAccounts = (ACCOUNT_COMMANDS as readonly string[]).includes(command);
  if (!isAccounts && command !== 'migrate' && command !== 'console:link') {
    io.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'silent' ? 'silent' : 'info', 'trawl', true);
  const services = await ensureLocalServices(
    { dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL, redisUrl: config.REDIS_URL, needRedis: false },
    // Progress of the local services: pino lines on stderr (stdout is the command's output).
    (message) => log.info(message),
  );
  const redis = services.redisUrl ? createRedis(services.redisUrl, 'trawl-cli', { log }) : null;
  try {
    const outcome = await migrate(services.databaseUrl, path.join(repoRoot, 'prisma/migrations'));
    if (command === 'migrate') {
      io.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      return 0;
    }
    if (command === 'console:link') return await runConsoleLinkCommand(args, services.databaseUrl, config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`, io);
    return await runAccountsCommand(command, args, services.databaseUrl, redis, io, config.REDIS_PREFIX);
  } finally {
    redis?.disconnect();
    await services.stop();
  }
}

/** Ctrl-C (once) or a closed stdout (`| head`) stops following the crawl and cancels it; a second Ctrl-C kills. */
function crawlSite(args: string[]): Promise<number> {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.stdout.on('error', () => stop.abort());
  return runCrawlSiteCommand(args, { ...io, env: process.env }, stop.signal);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof TrawlError || error instanceof UsageError || (error instanceof Error && error.name === 'TypeError' && 'code' in error)) {
      io.stderr.write(`trawl: ${(error as Error).message}\n`);
      process.exit(2);
    }
    io.stderr.write(`trawl: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
