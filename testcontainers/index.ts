// The testcontainers module: `import { TopicsEmulatorContainer } from 'topics-emulator/testcontainers'`.
export {
  ADMIN_KEY_HEADER,
  ControlPlaneError,
  DEFAULT_API_KEY,
  DEFAULT_TOPICS_EMULATOR_IMAGE,
  StartedTopicsEmulatorContainer,
  TOPICS_EMULATOR_PORT,
  TopicsEmulatorContainer,
} from './topics-emulator-container.js';
export type {
  ClockChange,
  ControlAnswer,
  Fault,
  FaultRule,
  IssuedToken,
  RequestFilters,
  ScenarioSource,
  TokenRequest,
  TopicResetSchedule,
} from './topics-emulator-container.js';
