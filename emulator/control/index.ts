import type { EmulatorContext, OperationHandler } from '../context.js';
import { healthHandler } from './health.js';

/** The control plane's operations (openapi/control.yaml), one handler each. */
export function controlHandlers(_context: EmulatorContext): OperationHandler[] {
  return [healthHandler()];
}
