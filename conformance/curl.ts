// An exchange as a curl command that sends the same bytes, with every token replaced by
// a shell variable ($TOKEN, ...) the reader exports first.
import type { Exchange } from './exchange.js';
import type { Secrets } from './secrets.js';

/** Double-quoted for the shell, leaving `$NAME` placeholders of secrets expandable. */
function quote(text: string, secrets: Secrets): string {
  const marked = secrets.redact(text);
  const escaped = marked.replace(/[\\"`]/g, '\\$&').replace(/\$(?![A-Z][A-Z0-9_]*)/g, '\\$');
  return `"${escaped}"`;
}

/** The body as a printf format: printable ASCII as is, every other byte as octal. */
function printfBody(body: Uint8Array): string {
  let out = '';
  for (const byte of body) {
    const char = String.fromCharCode(byte);
    if (byte >= 0x20 && byte < 0x7f && char !== "'" && char !== '\\' && char !== '%') out += char;
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `'${out}'`;
}

export function toCurl(exchange: Exchange, secrets: Secrets): string {
  const parts = ['curl', '-sS', '-i'];
  if (exchange.method !== 'GET') parts.push('-X', exchange.method);
  if (exchange.operation === 'subscribe') parts.push('--max-time', '10');
  parts.push(quote(exchange.url, secrets));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    parts.push('-H', quote(`${name}: ${value}`, secrets));
  }
  // curl would otherwise add a form Content-Type to a body sent without one.
  if (exchange.requestBody !== undefined && !('content-type' in exchange.requestHeaders))
    parts.push('-H', '"Content-Type:"');
  const command = parts.join(' ');
  if (exchange.requestBody === undefined) return command;
  if (exchange.requestBody.length === 0) return `${command} --data-binary ''`;
  return `printf ${printfBody(exchange.requestBody)} | ${command} --data-binary @-`;
}
