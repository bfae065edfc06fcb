import { createHash, timingSafeEqual } from 'node:crypto';
import { EmulatorError } from '../errors.js';

// The admin key, checked the same way whichever door a request came through: by digest, in
// constant time. The HTTP control plane reads it from `X-Emulator-Admin-Key`; the gRPC doors
// from the call's metadata of the same name.

export const ADMIN_KEY_HEADER = 'x-emulator-admin-key';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Throws `admin_key_required` when nothing is given, `admin_key_invalid` when it is not the key. */
export type AdminKeyCheck = (given: string | readonly string[] | undefined) => void;

export function adminKeyVerifier(adminKey: string): AdminKeyCheck {
  const expected = digest(adminKey);
  return (given) => {
    if (given === undefined || given === '') throw new EmulatorError('admin_key_required');
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected))
      throw new EmulatorError('admin_key_invalid');
  };
}
