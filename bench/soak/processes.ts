import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root: the processes run from their sources there, as the crash tests' do. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One API or worker process of the soak, restartable on the same port (the load keeps its URL). */
export type SoakProcess = {
  name: string;
  /** The API's base URL; null for a worker. */
  url: string | null;
  alive(): boolean;
  start(extraEnv?: Record<string, string>): Promise<void>;
  /** SIGKILL: stopped between two statements, nothing closed or flushed. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
  /** The last lines it wrote (for a failure's message). */
  tail(): string;
  /** Exits the script did not cause: exit code or signal and the last lines before it. */
  unexpectedExits: string[];
};

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * The bundled server (with `port`) or worker (bundle.ts), with `env` added to this process's. An
 * API is up once `/healthz` answers 200; a worker once it says it started. `preload` modules are
 * imported first (the SNS test certificate, apps/web/e2e/fake-sns-certificate.mjs).
 */
export function soakProcess(
  name: string,
  kind: 'api' | 'worker',
  entry: string,
  env: Record<string, string>,
  options: { port?: number; preload?: string[]; startTimeoutMs?: number } = {},
): SoakProcess {
  let child: ChildProcess | null = null;
  let output = '';
  let stopping = false;
  const url = kind === 'api' ? `http://127.0.0.1:${options.port ?? 0}` : null;
  const imports = (options.preload ?? []).flatMap((m) => ['--import', m]);

  const self: SoakProcess = {
    name,
    url,
    alive: () => child !== null && child.exitCode === null && child.signalCode === null,
    async start(extraEnv = {}) {
      const started = spawn(process.execPath, [...imports, entry], {
        cwd: ROOT,
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          ...(options.port ? { PORT: String(options.port) } : {}),
          ...env,
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      stopping = false;
      started.once('exit', (code, signal) => {
        if (!stopping) self.unexpectedExits.push(`${name} exited (${code ?? signal}):\n${output.slice(-2000)}`);
      });
      let ready = false;
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000);
        if (kind === 'worker' && output.includes('Pipeline worker started')) ready = true;
      };
      started.stdout?.on('data', keep);
      started.stderr?.on('data', keep);
      const deadline = Date.now() + (options.startTimeoutMs ?? 300_000);
      for (;;) {
        if (started.exitCode !== null) throw new Error(`${name} exited (${started.exitCode}):\n${output.slice(-3000)}`);
        if (url) {
          const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
          if (res?.ok) return;
        } else if (ready) return;
        if (Date.now() > deadline) {
          started.kill('SIGKILL');
          throw new Error(`${name} did not start:\n${output.slice(-3000)}`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async kill() {
      if (!child) return;
      stopping = true;
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      if (!child || !self.alive()) return;
      const current = child;
      stopping = true;
      current.kill('SIGTERM');
      const force = setTimeout(() => current.kill('SIGKILL'), 15_000);
      await exited(current);
      clearTimeout(force);
    },
    tail: () => output.slice(-3000),
    unexpectedExits: [],
  };
  return self;
}
