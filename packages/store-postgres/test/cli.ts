/**
 * Runs the importer CLI (`src/cli.ts`, through tsx) as its own process, as a user would: the
 * import tests read its exit code and what it prints on stderr.
 * @module
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const cli = join(here, '../src/cli.ts');

/** The command line that runs the CLI, before its arguments. */
export const CLI_COMMAND: readonly string[] = [process.execPath, tsx, '--tsconfig', join(here, 'tsconfig.json'), cli];

/** How a CLI run ended. */
export interface CliRun {
  code: number | null;
  stderr: string;
}

/**
 * Starts the CLI; its stdout is drained, its stderr piped.
 * @param args - The arguments after `catalogue-api`.
 */
export function startCli(args: string[]) {
  const child = spawn(CLI_COMMAND[0]!, [...CLI_COMMAND.slice(1), ...args], {
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.resume();
  return child;
}

/**
 * Waits for a started CLI to exit.
 * @param child - From {@link startCli}.
 * @returns Its exit code and everything it wrote on stderr.
 */
export function cliFinished(child: ReturnType<typeof startCli>): Promise<CliRun> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

/**
 * Runs the CLI to its end.
 * @param args - The arguments after `catalogue-api`.
 */
export const runCli = (args: string[]): Promise<CliRun> => cliFinished(startCli(args));
