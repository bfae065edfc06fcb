import { EmulatorError } from '../errors.js';

/** What a service request is answered while a replica has lost its Redis store. */
export function unavailable(): EmulatorError {
  return new EmulatorError('service_unavailable', 'The emulator has lost its store (Redis): try again shortly.', {
    'retry-after': '1',
  });
}
