/**
 * `GET /screenshots/<key>?expires=&signature=`: a stored screenshot (or a `pdf` action's PDF) behind its signed, expiring link. The link is
 * the authorisation (no API key); a link that is tampered with or past its time is refused with 403.
 */
import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { LocalScreenshotStore, ScreenshotLinks, captureType } from '#storage';
import { ErrorCode, TrawlError } from '#contracts';

@Controller('screenshots')
export class ScreenshotController {
  constructor(
    @Inject(LocalScreenshotStore) private readonly store: LocalScreenshotStore,
    @Inject(ScreenshotLinks) private readonly links: ScreenshotLinks,
  ) {}

  @Get(':key')
  async get(@Param('key') key: string, @Query('expires') expires: unknown, @Query('signature') signature: unknown, @Res() reply: FastifyReply) {
    const file = this.store.pathOf(key);
    const verdict = file ? this.links.verify(key, expires, signature) : 'invalid';
    if (verdict === 'expired') throw new TrawlError(ErrorCode.FORBIDDEN, 'The screenshot link has expired');
    if (verdict !== 'ok' || !file) throw new TrawlError(ErrorCode.FORBIDDEN, 'The screenshot link is not valid');
    const info = await stat(file).catch(() => null);
    if (!info) throw new TrawlError(ErrorCode.NOT_FOUND, 'The screenshot no longer exists');
    return reply
      .header('content-type', captureType(key))
      .header('content-length', String(info.size))
      .header('cache-control', 'private, max-age=300')
      .send(createReadStream(file));
  }
}
