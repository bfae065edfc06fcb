import { Ajv2020 } from 'ajv/dist/2020.js';
import topicsDocument from '../../openapi/generated/topics.json' with { type: 'json' };

// Validates a response the emulator gave against the response schema the document declares
// for that operation and status, so a test fails when code and document drift apart.

type Json = Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
const operations = new Map<string, Json>();
for (const item of Object.values(topicsDocument.paths as Record<string, Json>)) {
  for (const operation of Object.values(item)) {
    const id = (operation as Json).operationId;
    if (typeof id === 'string') operations.set(id, operation as Json);
  }
}

export function contractProblem(
  operationId: string,
  status: number,
  contentType: string | null,
  body: string,
): string | undefined {
  const operation = operations.get(operationId);
  if (!operation) return `no operation ${operationId}`;
  const response = (operation.responses as Record<string, Json>)[String(status)];
  if (!response) return `status ${status} is not declared for ${operationId}`;
  const content = response.content as Record<string, { schema: Json }> | undefined;
  if (!content)
    return body === '' ? undefined : `status ${status} declares no body, got ${JSON.stringify(body.slice(0, 80))}`;
  const mediaType = (contentType ?? '').split(';')[0]!.trim();
  const media = content[mediaType];
  if (!media) return `content type ${mediaType} not declared for ${operationId} ${status}`;
  const validate = ajv.compile(media.schema);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `body is not JSON: ${body.slice(0, 80)}`;
  }
  return validate(parsed) ? undefined : ajv.errorsText(validate.errors);
}
