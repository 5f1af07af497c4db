/** The origin links in answers start with (crawl `next` links, screenshot links): PUBLIC_BASE_URL, else the request's. */
import type { FastifyRequest } from 'fastify';
import type { TrawlConfig } from '#config';

export function publicBase(config: Pick<TrawlConfig, 'PUBLIC_BASE_URL'>, request: FastifyRequest): string {
  return config.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
}
