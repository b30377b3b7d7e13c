import type { FastifyInstance } from 'fastify';
import { mediaType } from '../../node/content-type';
import type { ServiceContext } from '../context';
import { plainError, validationError } from '../http/errors';
import { handle } from '../http/handle';
import { languageModels } from './catalog';
import { parseModelFilter } from './filter';

export function registerModelRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  handle(app, ctx, 'models.list', async ({ query, req }) => {
    // The spec's models query insists on this header even though a GET has no body.
    if (mediaType(req.headers['content-type']) !== 'application/json') throw plainError(415, 'Content-Type must be application/json');
    let models = languageModels(ctx.speech);
    if (query.filter !== undefined) {
      const filter = parseModelFilter(query.filter);
      if (typeof filter === 'string') throw validationError(filter);
      models = models.filter(filter);
    }
    return { count: models.length, total_results: models.length, result: models };
  });
}
