import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, when it ends, instead of Fastify's two ("incoming request" and
 * "request completed"): method, the route's pattern — never the URL, whose query string may hold
 * what a person searched for — status and time.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
