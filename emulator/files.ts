import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

// Files a person names (a scenario, an exam plan, a config file, a certificate): read only when
// they are regular files of a bounded size. A FIFO, a device or a directory would block the read
// (or never end); it is refused with the reason instead. Opened without blocking, so that even
// the open of a FIFO with no writer returns at once.

/** Larger than any scenario, plan, config or certificate a person writes. */
export const NAMED_FILE_BYTES = 4 * 1024 * 1024;

/** The text of a regular file of at most `limitBytes`; throws an Error saying why not. */
export async function readNamedFile(path: string, limitBytes = NAMED_FILE_BYTES): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    if (stat.size > limitBytes) throw new Error(`${path} is ${stat.size} bytes; at most ${limitBytes} are read`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
