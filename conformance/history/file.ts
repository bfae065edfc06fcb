import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { UsageError } from '../options.js';
import { parseLine, type HistoryEvent } from './events.js';

/** A history written as JSON Lines (`--history`), read back; a line it cannot read is a usage error naming it. */
export async function readHistory(path: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let number = 0;
  try {
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      number++;
      if (line.trim() === '') continue;
      const event = parseLine(line);
      if (typeof event === 'string') throw new UsageError(`--check ${path}, line ${number}: ${event}`);
      events.push(event);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read --check ${path}: ${(error as Error).message}`);
  }
  return events;
}
