/** The Firecrawl-compatible API's part of the gateway: its two controllers, its services, its error shape and its watcher. */
import type { Provider, Type } from '@nestjs/common';
import { FirecrawlErrorShape } from './firecrawl-answer.js';
import { FirecrawlJobsService } from './firecrawl-jobs.service.js';
import { FirecrawlLookupService } from './firecrawl-lookup.service.js';
import { FirecrawlScrapeService } from './firecrawl-scrape.service.js';
import { FirecrawlTeamService } from './firecrawl-team.service.js';
import { FirecrawlV1Controller } from './v1.controller.js';
import { FirecrawlV2Controller } from './v2.controller.js';
import { FirecrawlWatchService } from './firecrawl-watch.service.js';
import { FirecrawlWatchSocket } from './watch-socket.js';

export const FIRECRAWL_CONTROLLERS: Type[] = [FirecrawlV2Controller, FirecrawlV1Controller];

export const FIRECRAWL_PROVIDERS: Provider[] = [FirecrawlScrapeService, FirecrawlJobsService, FirecrawlLookupService, FirecrawlTeamService, FirecrawlErrorShape,
  FirecrawlWatchService, FirecrawlWatchSocket,
];
