import type { ChildProcess } from 'node:child_process';

/** The spec's shutdown: close stdin, give it this long to exit, then SIGTERM, then as long again, then SIGKILL. */
const shutdownStepMs = 2000;
/** How often the process group is looked at while it stops. */
const pollMs = 50;

export const isWindows = process.platform === 'win32';

/** Signals the process group a child leads (started `detached`; on Windows, the child only); false when none of it is left. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(isWindows ? child.pid : -child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a server started in a process group of its own, as the spec shuts a stdio server down:
 * its stdin closed, then the whole group signalled (SIGTERM, then SIGKILL), whether or not the
 * child is still there, so that no process it left behind lives on holding its output. Resolves
 * within three shutdown steps whatever the group does; a process that left the group (`setsid`)
 * cannot be reached and is left as it is.
 */
export async function stopGroup(child: ChildProcess): Promise<void> {
  child.stdin?.end();
  child.stderr?.destroy();
  if (child.pid === undefined) return;
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  await until(exited, shutdownStepMs);
  if (signalGroup(child, 'SIGTERM')) {
    await until(() => !signalGroup(child, 0), shutdownStepMs);
    if (signalGroup(child, 'SIGKILL')) await until(() => exited() && !signalGroup(child, 0), shutdownStepMs);
  }
  child.stdin?.destroy();
  child.unref();
}

/** Resolves when `done()` holds or after `ms`, whichever is first. */
async function until(done: () => boolean, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, pollMs));
}
