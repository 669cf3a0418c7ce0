/** /__emulator/reset, /fixtures, /state and /snapshots (docs/control-api.md). */
import express, { Router } from 'express';
import { z } from 'zod';
import { parseParams, parseControlBody } from '../http/validate.js';
import type { StateService } from './state-service.js';

const snapshotName = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'A snapshot name is letters, digits, ".", "_" or "-".');

export function stateRouter(state: StateService, importLimit: string): Router {
  const router = Router({ strict: true });
  const json = express.json({ limit: importLimit });

  router.post('/reset', async (_req, res) => {
    await state.reset();
    res.json({ data: { fixture: state.fixture } });
  });
  router.post('/fixtures/load', json, async (req, res) => {
    const { fixture } = parseControlBody(z.object({ fixture: z.string().min(1) }).strict(), req.body);
    await state.load(fixture);
    res.json({ data: { fixture: state.fixture } });
  });
  router.get('/state', (_req, res) => {
    res.setHeader('Content-Disposition', 'attachment; filename="data.json"');
    res.json(state.export());
  });
  router.put('/state', json, (req, res) => {
    state.import(req.body);
    res.status(204).end();
  });
  router.get('/snapshots', (_req, res) => {
    res.json({ data: state.list() });
  });
  router.post('/snapshots', json, (req, res) => {
    const { name } = parseControlBody(z.object({ name: snapshotName }).strict(), req.body);
    res.status(201).json({ data: state.save(name) });
  });
  router.post('/snapshots/:name/restore', (req, res) => {
    state.restore(parseParams(z.object({ name: snapshotName }), req).name);
    res.status(204).end();
  });
  router.delete('/snapshots/:name', (req, res) => {
    state.remove(parseParams(z.object({ name: snapshotName }), req).name);
    res.status(204).end();
  });
  return router;
}
