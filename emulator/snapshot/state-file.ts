import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checked } from '../control/validation.js';
import { SNAPSHOT_BYTES_LIMIT, type Snapshot } from './document.js';

// --state-file: the snapshot read at start (when the file exists) and written on a clean
// shutdown. Written atomically: a temporary file in the same directory, flushed to disk, then
// renamed over the old one, so a crash leaves the old file or the new one, never half of one.

export class StateFileError extends Error {
  override name = 'StateFileError';
}

/**
 * The file's JSON, or undefined when there is no file yet. Only a regular file of at most
 * SNAPSHOT_BYTES_LIMIT bytes is read: opened without blocking (a FIFO given by mistake would wait
 * for a writer forever) and refused when it is anything else (a FIFO, /dev/zero, a directory).
 */
export async function readStateFile(path: string): Promise<unknown> {
  let text: string;
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`Cannot read state file ${path}: ${(error as Error).message}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new StateFileError(`State file ${path} is not a regular file`);
    if (stat.size > SNAPSHOT_BYTES_LIMIT)
      throw new StateFileError(
        `State file ${path} is ${stat.size} bytes; a snapshot is at most ${SNAPSHOT_BYTES_LIMIT}`,
      );
    text = await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    throw new StateFileError(`Cannot read state file ${path}: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StateFileError(`State file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The temporary files writeStateFile makes beside `path` (`.NAME.<12 hex>.tmp`). */
function isTemporaryOf(path: string, name: string): boolean {
  const prefix = `.${basename(path)}.`;
  return name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length));
}

/**
 * Removes the temporary files a write cut short left beside `path` (a SIGKILL between create and
 * rename), so they do not pile up from one run to the next. Returns how many it removed.
 */
export async function removeStaleTemporaries(path: string): Promise<number> {
  const directory = dirname(path);
  const names = await readdir(directory).catch(() => [] as string[]);
  const stale = names.filter((name) => isTemporaryOf(path, name));
  await Promise.all(stale.map((name) => rm(join(directory, name), { force: true }).catch(() => undefined)));
  return stale.length;
}

/** What writing needs of the file system; tests pass one that fails halfway. */
export interface StateFileIo {
  create(path: string): Promise<Pick<FileHandle, 'writeFile' | 'sync' | 'close'>>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
}

export const nodeIo: StateFileIo = {
  create: (path) => open(path, 'wx', 0o600),
  rename,
  remove: (path) => rm(path, { force: true }),
};

/** Writes the snapshot to `path` atomically; on failure the old file stays and the temporary one is removed. */
export async function writeStateFile(path: string, snapshot: Snapshot, io: StateFileIo = nodeIo): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const text = JSON.stringify(snapshot);
  try {
    const file = await io.create(temporary);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await io.rename(temporary, path);
  } catch (error) {
    await io.remove(temporary).catch(() => undefined);
    throw new StateFileError(`Cannot write state file ${path}: ${(error as Error).message}`);
  }
  await syncDirectory(dirname(path));
}

// The rename is durable once the directory is flushed too; where a directory cannot be opened
// for that (some platforms), the rename stands as it is.
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r').catch(() => undefined);
  if (!handle) return;
  await handle
    .sync()
    .catch(() => undefined)
    .finally(() => handle.close());
}

/**
 * Loads the state file into the emulator when it exists (checked against the document's
 * `Snapshot`, once); returns whether it did. A file that is not a valid snapshot is a
 * StateFileError naming the file and the problem.
 */
export async function loadStateFile(path: string, restore: (snapshot: Snapshot) => unknown): Promise<boolean> {
  await removeStaleTemporaries(path);
  const snapshot = await readStateFile(path);
  if (snapshot === undefined) return false;
  try {
    restore(checked('Snapshot', snapshot));
  } catch (error) {
    const problem = (error as Error).message.replace('The request body is invalid: body', 'the snapshot');
    throw new StateFileError(`State file ${path} is not a valid snapshot: ${problem}`);
  }
  return true;
}
