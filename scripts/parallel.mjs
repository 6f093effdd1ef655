// Runs each argument as a shell command, all at once, and fails if any of them fails. For steps
// that use one core each (the TypeScript projects' checks), so a two-core machine runs two at a time.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/parallel.mjs "<command>" ["<command>" …]');
  process.exit(2);
}

const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        // Each command's output is kept and printed whole when it ends, so two commands' lines never interleave.
        let output = '';
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (chunk) => {
          output += chunk;
        });
        child.stderr.on('data', (chunk) => {
          output += chunk;
        });
        child.on('close', (code, signal) => {
          const status = code ?? signal;
          process.stdout.write(`--- ${command} (${status === 0 ? 'ok' : `failed: ${status}`})\n${output}`);
          resolve(status === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
