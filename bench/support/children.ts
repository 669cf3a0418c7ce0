/**
 * Starting and stopping the benchmark's server processes (emulator, bare ceiling, json-server):
 * each runs in its own child so that the load generator in the parent never shares its event
 * loop. Children speak a tiny IPC protocol: they send { type: 'ready', … } once listening and
 * exit on 'stop' (or when the parent goes away).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { compiledChild } from './compiled.js';

export interface Child<Ready> {
  process: ChildProcess;
  ready: Ready;
  /** From fork until the ready message: process start, module loading, and the child's own set-up. */
  spawn_ms: number;
}

export interface ForkOptions {
  /** Node flags for the child (e.g. --cpu-prof). The parent's (the tsx loader) are not passed on. */
  nodeFlags?: string[];
  /** Variables added to the child's environment (the parent's are passed on too). */
  env?: Record<string, string>;
}

/**
 * Starts the child whose TypeScript source is `script`, compiled, on plain node (compiled.ts).
 * `spawn_ms` counts from the fork, not the compilation.
 */
export async function startChild<Ready extends { type: 'ready' }>(
  script: string,
  args: string[],
  options: ForkOptions = {},
): Promise<Child<Ready>> {
  const compiled = await compiledChild(script);
  const started = performance.now();
  const child = fork(compiled, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: options.nodeFlags ?? [],
    env: options.env ? { ...process.env, ...options.env } : process.env,
  });
  return new Promise((resolve, reject) => {
    const early = (code: number | null) => reject(new Error(`${script} exited before it was ready (code ${code})`));
    child.once('error', reject);
    child.once('exit', early);
    const onMessage = (message: { type?: string }) => {
      if (message.type !== 'ready') return;
      child.off('exit', early);
      child.off('message', onMessage);
      resolve({ process: child, ready: message as Ready, spawn_ms: Math.round(performance.now() - started) });
    };
    child.on('message', onMessage);
  });
}

/** Asks the child to stop; kills it if it has not exited after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send('stop');
  });
}

/** Sends `request` and resolves with the first message of type `replyType`. */
export function ask<Reply extends { type: string }>(child: ChildProcess, request: object, replyType: Reply['type']): Promise<Reply> {
  return new Promise((resolve) => {
    const listener = (message: { type?: string }) => {
      if (message.type !== replyType) return;
      child.off('message', listener);
      resolve(message as Reply);
    };
    child.on('message', listener);
    child.send(request);
  });
}
