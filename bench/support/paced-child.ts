/**
 * Child process of the benchmark: the paced load generator (paced.ts) alone in its process, so
 * that the parent's work (its heap holding the generated store, tsx, IPC with the server child)
 * never delays a request past the moment it was due.
 *
 *   fork('bench/support/paced-child.ts')  → { type: 'ready' }; { type: 'run', … } → { type: 'paced-done', result }
 */
import { pacedLoad, type PacedDone, type PacedRun } from './paced.js';

if (!process.send) {
  console.error('usage: fork bench/support/paced-child.ts (with an IPC channel)');
  process.exit(2);
}
const send = process.send.bind(process);

process.on('message', (message: PacedRun | 'stop') => {
  if (message === 'stop') process.exit(0);
  if (message.type !== 'run') return;
  void pacedLoad(message.url, message.options).then((result) => {
    const done: PacedDone = { type: 'paced-done', result };
    send(done);
  });
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
