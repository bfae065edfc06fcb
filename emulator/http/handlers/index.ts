import type { EmulatorContext } from '../../context.js';
import type { OperationHandler } from '../operation-handler.js';
import type { LongPolls } from '../waiting.js';
import { publishHandler } from './publish.js';
import { subscribeHandler } from './subscribe.js';

/** The service contract's operations (openapi/topics.yaml), one handler each: the HTTP door's translation of service/. */
export function topicsHandlers(context: EmulatorContext, longPolls: LongPolls): OperationHandler[] {
  return [publishHandler(context), subscribeHandler(context, longPolls)];
}
