import { open } from 'node:fs/promises';

// What the exam publishes: message n as plain text, as a JSON object (the default: most public
// clients parse each message as JSON), or from a template file. Every form holds the text
// `exam message <n>`, which is how the end-to-end check finds a message in the client's output,
// whatever the client prints around it (the raw text, the parsed object, a log line).

export type MessageFormat =
  { kind: 'text' } | { kind: 'json' } | { kind: 'template'; source: string; template: string };

export const messageFormats = ['text', 'json'] as const;

/** The text every form of message n holds. */
export const messageText = (n: number) => `exam message ${n}`;

/** The largest message the service takes (service facts, Publish): a template must fit. */
const PAYLOAD_LIMIT = 4096;
/** The most digits a message number has in an exam (room for any count a plan can publish). */
const NUMBER_ROOM = 12;

export class MessageFormatError extends Error {
  override name = 'MessageFormatError';
}

/** Message n in the given format. */
export function messageOf(format: MessageFormat, n: number): string {
  switch (format.kind) {
    case 'text':
      return messageText(n);
    case 'json':
      return JSON.stringify({ n, text: messageText(n) });
    case 'template':
      return format.template.replaceAll('{{n}}', String(n)).replaceAll('{{text}}', messageText(n));
  }
}

/** `text`, `json`, or a template file holding `{{text}}` (and optionally `{{n}}`). */
export async function messageFormat(name: string): Promise<MessageFormat> {
  if (name === 'text' || name === 'json') return { kind: name };
  let template: string;
  try {
    // Only a regular file, and only as much as a message may hold (a FIFO or /dev/zero is refused).
    const file = await open(name, 'r');
    try {
      const stat = await file.stat();
      if (!stat.isFile()) throw new MessageFormatError(`--messages ${name} is not a regular file`);
      if (stat.size > PAYLOAD_LIMIT)
        throw new MessageFormatError(
          `--messages ${name} is ${stat.size} bytes; a message holds at most ${PAYLOAD_LIMIT}`,
        );
      template = await file.readFile('utf8');
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof MessageFormatError) throw error;
    throw new MessageFormatError(
      `--messages takes text, json or a template file; cannot read ${name}: ${(error as Error).message}`,
    );
  }
  if (!template.includes('{{text}}'))
    throw new MessageFormatError(
      `--messages ${name} must hold {{text}} (replaced by "exam message <n>", which the end-to-end check looks for)`,
    );
  const largest = Buffer.byteLength(messageOf({ kind: 'template', source: name, template }, 10 ** NUMBER_ROOM - 1));
  if (largest > PAYLOAD_LIMIT)
    throw new MessageFormatError(`--messages ${name}: a message would be ${largest} bytes; at most ${PAYLOAD_LIMIT}`);
  return { kind: 'template', source: name, template };
}

export function describeFormat(format: MessageFormat): string {
  return format.kind === 'template' ? `template ${format.source}` : format.kind;
}

const MESSAGE = /exam message (\d+)(?!\d)/g;

/** The exam's message numbers in the client's output, in order, wherever they stand in a line. */
export function printedNumbers(lines: readonly string[]): number[] {
  const numbers: number[] = [];
  for (const line of lines) for (const match of line.matchAll(MESSAGE)) numbers.push(Number(match[1]));
  return numbers;
}
