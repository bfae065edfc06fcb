// Copies the Redis store's Lua scripts (emulator/redis/lua/) beside the compiled code, after
// each build (`npm run build`): tsc emits only JavaScript, and emulator/redis/scripts.ts reads
// the scripts from the folder next to it.
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
cpSync(`${root}emulator/redis/lua`, `${root}dist/emulator/redis/lua`, { recursive: true });
