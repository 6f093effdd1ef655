import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../../../../bench/soak/bundle.ts';

/** The repository's root: the bundled server runs there, where its npm dependencies resolve. */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  url: string;
  /** kill -9: the process stops between two statements, nothing closed or flushed. */
  kill(): Promise<void>;
  /** SIGTERM: a graceful stop. */
  stop(): Promise<void>;
  output(): string;
};

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * The server bundled once per test worker, in the worker's own folder (vitest's pool slot, reused
 * by the next run), so two workers never rewrite the files the other's restarts read: a bundle starts in about 2.7 s, through tsx the sources were
 * compiled again at every start and restart (4.3 s, more on a busy machine).
 */
let bundled: Promise<{ server: string }> | undefined;

/**
 * The real server (`apps/server/src/server.ts`, bundled as `npm run build` bundles it) in its own
 * process on a free loopback port with `env` added to this one's, answered once `/healthz` says it is up.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  bundled ??= bundleServer(`crash-${process.env.VITEST_POOL_ID ?? process.pid}`);
  const { server } = await bundled;
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', server], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
    output: () => output,
  };
}

/** Calls the server's API as a signed-in administrator. */
export function apiClient(server: () => ServerProcess, token: () => string) {
  return async <T>(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<{ status: number; json: T }> => {
    const res = await fetch(`${server().url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token()}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
  };
}

export async function signIn(server: ServerProcess, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Polls `read` until `done` holds, up to `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
