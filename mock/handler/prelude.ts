// The first steps of every request, run as one middleware: fewer router layers on the hot path.
import type { RequestHandler } from 'express';

/** Runs handlers in turn inside one Express layer; an error or an answer stops the chain, as in Express. */
export function prelude(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[i++];
      if (!handler) return next();
      handler(req, res, step);
    };
    step();
  };
}
