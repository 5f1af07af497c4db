// Loads one URL through LangChain JS's FireCrawlLoader and prints the documents as JSON on stdout: what a LangChain
// pipeline pointed at Trawl receives. Usage: node load.mjs '{"url":…,"apiKey":…,"apiUrl":…,"mode":…,"params":…}'
import { FireCrawlLoader } from '@langchain/community/document_loaders/web/firecrawl';

const options = JSON.parse(process.argv[2] ?? '{}');
try {
  const docs = await new FireCrawlLoader(options).load();
  process.stdout.write(JSON.stringify({ docs: docs.map((d) => ({ pageContent: d.pageContent, metadata: d.metadata })) }));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
}
