import { readNamedFile } from '../files.js';
import { checked } from '../control/validation.js';
import { parseYaml } from '../yaml.js';
import type { ScenarioInput } from './apply.js';

// A scenario file: YAML or JSON (YAML is a superset of JSON, so one parser reads both),
// checked against the control document's Scenario schema before anything is applied.

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

export function parseScenario(text: string, source: string): ScenarioInput {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new ScenarioError(`${source} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ScenarioError(`${source} must hold an object (a scenario)`);
  try {
    return checked('Scenario', value);
  } catch (error) {
    throw new ScenarioError(
      `${source}: ${(error as Error).message.replace('The request body is invalid: body', 'the scenario')}`,
    );
  }
}

export async function readScenarioFile(path: string): Promise<ScenarioInput> {
  let text: string;
  try {
    text = await readNamedFile(path);
  } catch (error) {
    throw new ScenarioError(`Cannot read scenario file ${path}: ${(error as Error).message}`);
  }
  return parseScenario(text, `scenario file ${path}`);
}
