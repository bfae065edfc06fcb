import type { FastifyRequest } from 'fastify';
import { ADMIN_KEY_HEADER, adminKeyVerifier } from '../auth/admin-key.js';
import { SettingsError, type EmulatorSettings } from '../settings.js';

// The control plane can reset, expire and break everything: beyond loopback it needs an admin
// key (or to be switched off). The key is compared by digest in constant time (auth/admin-key.ts).

export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/** Refuses a configuration that would expose the control plane beyond loopback, or to every web page, without a key. */
export function checkControlPlaneExposure(settings: EmulatorSettings): void {
  if (settings.testAdminPort !== undefined && settings.adminKey === undefined && !isLoopback(settings.host))
    throw new SettingsError(
      `The test-admin port (--test-admin-port) would listen on ${settings.host}, beyond loopback, where anyone could block the gRPC door. ` +
        'Set an admin key (--admin-key or TOPICS_EMULATOR_ADMIN_KEY), or leave the test-admin port off.',
    );
  if (!settings.controlPlane || settings.adminKey !== undefined) return;
  if (settings.controlCorsOrigins.includes('*')) {
    throw new SettingsError(
      "The control plane would take requests from every web page (--control-cors-origin '*') without an admin key: any site could reset the emulator or mint tokens. " +
        'Set an admin key (--admin-key or TOPICS_EMULATOR_ADMIN_KEY), or list the origins that may call it.',
    );
  }
  if (isLoopback(settings.host)) return;
  throw new SettingsError(
    `The emulator would listen on ${settings.host}, beyond loopback, with its control plane (/_emulator/) open to anyone who can reach it. ` +
      'Set an admin key (--admin-key or TOPICS_EMULATOR_ADMIN_KEY) or switch the control plane off (--control off or TOPICS_EMULATOR_CONTROL=off).',
  );
}

/** An onRequest check for the control plane's protected operations; none when no key is configured. */
export function adminKeyCheck(adminKey: string | undefined): ((request: FastifyRequest) => Promise<void>) | undefined {
  if (adminKey === undefined) return undefined;
  const check = adminKeyVerifier(adminKey);
  return async (request) => check(request.headers[ADMIN_KEY_HEADER]);
}
