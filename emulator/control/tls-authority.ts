import type { OperationHandler } from '../http/operation-handler.js';
import { EmulatorError } from '../errors.js';

/** GET /_emulator/tls/ca.pem: the local authority's certificate behind --https-port, or 404 without one. */
export function tlsAuthorityHandler(authority: () => string | undefined): OperationHandler {
  return {
    operationId: 'getTlsAuthority',
    async handle(_request, reply) {
      const pem = authority();
      if (pem === undefined)
        throw new EmulatorError(
          'route_not_found',
          'No local certificate authority is in use: start with --https-port (without --tls-cert) to have one.',
        );
      return reply.code(200).type('application/x-pem-file').send(pem);
    },
  };
}
