import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the local certificate authority lives unless --tls-dir says: one per user, kept across runs. */
export const defaultTlsDir = () => join(homedir(), '.topics-emulator', 'tls');
