// Loads one URL through LangChain JS's FireCrawlLoader and prints the documents as JSON on stdout: what a LangChain
// pipeline pointed at Trawl receives. Usage: node load.mjs '{"url":…,"apiKey":…,"apiUrl":…,"mode":…,"params":…}'
// Every host name the process looks up is reported in `lookups`: pointed at Trawl on an IP address, it looks up none.
import dns from 'node:dns';

const lookups = [];
const lookup = dns.lookup;
dns.lookup = (hostname, ...rest) => {
  lookups.push(hostname);
  return lookup(hostname, ...rest);
};
const { FireCrawlLoader } = await import('@langchain/community/document_loaders/web/firecrawl');

const options = JSON.parse(process.argv[2] ?? '{}');
try {
  const docs = await new FireCrawlLoader(options).load();
  process.stdout.write(JSON.stringify({ docs: docs.map((d) => ({ pageContent: d.pageContent, metadata: d.metadata })), lookups }));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: error instanceof Error ? error.message : String(error), lookups }));
}
