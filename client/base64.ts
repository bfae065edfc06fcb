// Base64 to bytes with `atob`, which Node 16+, browsers and edge runtimes all have, so the
// client needs no Buffer.

/**
 * Decodes standard base64 (what the emulator sends, x-emulator-binary-values). The URL-safe
 * alphabet and missing padding are accepted too: the live service's binary encoding is not
 * published, and being lenient here costs nothing. Returns undefined for anything else.
 */
export function decodeBase64(encoded: string): Uint8Array | undefined {
  const standard = encoded.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return undefined;
  let binary: string;
  try {
    binary = atob(standard);
  } catch {
    return undefined; // impossible length, e.g. a single trailing character
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
