/**
 * The express application: middleware order, the emulated API under its base path, and the
 * one error handler. Ours (control API, UI) will mount beside the API, never inside it.
 */
import express, { type Express } from 'express';
import { apiRouter } from './api/index.js';
import type { EmulatorContext } from './context.js';
import { notFound } from './domain/errors.js';
import { messages } from './domain/messages.js';
import { errorHandler } from './http/errors.js';
import { cors } from './http/cors.js';
import { controlGuard } from './http/control-guard.js';
import { requestLogger } from './http/request-logger.js';
import { sendLongTextAsText } from './http/text-answers.js';
import { CDN_PATH } from './media/cdn-path.js';
import { cdnRouter } from './media/cdn.js';
import { CONTROL_PATH, controlRouter, type ControlServices } from './control/index.js';
import { UI_PATH, uiRouter } from './ui/static.js';

export function createApp(ctx: EmulatorContext, control: ControlServices): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('strict routing', true);
  // `fields.seo.title` must stay one flat key: the simple parser never nests.
  app.set('query parser', 'simple');
  sendLongTextAsText(app);

  app.use(ctx.config.basePath, requestLogger(control.requests, 'api', ctx.clock, ctx.bus), cors, apiRouter(ctx));
  app.use(CDN_PATH, requestLogger(control.requests, 'cdn', ctx.clock, ctx.bus), cors);
  app.use(cdnRouter(ctx));
  // The UI's files hold no data, so with a control token anyone may load them; every call they
  // make still needs the token. Without one, they answer on loopback only, like the control API.
  const uiGuard = ctx.config.controlToken === undefined ? [controlGuard(undefined)] : [];
  app.use(UI_PATH, ...uiGuard, uiRouter(ctx.config.uiDir));
  app.use(CONTROL_PATH, controlGuard(ctx.config.controlToken), controlRouter(ctx, control));
  app.get('/', (req, res) => {
    // A browser pointed at the root wants the window; a program wants to know where things are.
    if (req.accepts(['json', 'html']) === 'html') {
      res.redirect(302, UI_PATH + '/');
      return;
    }
    res.json({ name: 'cms-emulator', api: ctx.config.basePath + '/', ui: UI_PATH + '/' });
  });
  app.use(() => {
    throw notFound(messages.notFound);
  });
  app.use(errorHandler);
  return app;
}
