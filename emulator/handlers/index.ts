import type { EmulatorContext, OperationHandler } from '../context.js';
import { publishHandler } from './publish.js';
import { subscribeHandler } from './subscribe.js';

/** The service contract's operations (openapi/topics.yaml), one handler each. */
export function topicsHandlers(context: EmulatorContext): OperationHandler[] {
  return [publishHandler(context), subscribeHandler(context)];
}
