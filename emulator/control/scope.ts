import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import { errorHandler, sendError } from '../http/error-handler.js';
import { routesOf } from '../http/operations.js';
import { EmulatorError } from '../errors.js';
import { parseYaml } from '../yaml.js';
import type { OpenApiDocument } from '../openapi-routes.js';
import type { EmulatorSettings } from '../settings.js';
import { adminKeyCheck } from './admin-key.js';
import { compileCheck } from './validation.js';
import { SNAPSHOT_BYTES_LIMIT } from '../snapshot/document.js';

// The fastify scope the control plane's routes live in: its own body parsers (JSON, and YAML
// for scenarios) with a limit fit for scenarios, strict validation from the document, errors
// phrased for the control plane, and the admin key on every operation that is not open.

const CONTROL_BODY_LIMIT = 1024 * 1024;
/** Operations whose bodies may be larger: a snapshot holds every retained message. */
const LARGER_BODIES: Readonly<Record<string, number>> = { 'PUT /_emulator/snapshot': SNAPSHOT_BYTES_LIMIT };
const bodyLimitOf = (method: string, url: string | undefined) =>
  LARGER_BODIES[`${method} ${url}`] ?? CONTROL_BODY_LIMIT;
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml'];

function controlErrorHandler(payloadLimit: number, log: FastifyBaseLogger) {
  const fallback = errorHandler(payloadLimit, log);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.validation && error.validationContext === 'body') {
      return sendError(reply, new EmulatorError('invalid_body', `The request body is invalid: ${error.message}.`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(
        reply,
        new EmulatorError(
          'unsupported_content_type',
          'The control plane takes application/json bodies (scenarios also application/yaml).',
        ),
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        new EmulatorError(
          'payload_too_large',
          `A control-plane body may be at most ${bodyLimitOf(request.method, request.routeOptions.url)} bytes.`,
        ),
      );
    }
    return fallback(error, request, reply);
  };
}

export function prepareControlScope(
  scope: FastifyInstance,
  settings: EmulatorSettings,
  document: OpenApiDocument,
  log: FastifyBaseLogger,
): void {
  scope.setValidatorCompiler(({ schema }) => {
    // Compiled on the route's first request, not at start: most runs never call most of the
    // control plane. compileCheck caches per schema object.
    let check: ReturnType<typeof compileCheck> | undefined;
    // fastify reads `errors` from the validator; the message is already a sentence.
    const validate = (value: unknown) => {
      check ??= compileCheck(schema);
      const problem = check(value);
      validate.errors =
        problem === undefined
          ? null
          : [{ message: problem, keyword: 'control', instancePath: '', schemaPath: '', params: {} }];
      return problem === undefined;
    };
    validate.errors = null as FastifySchemaValidationError[] | null;
    return validate;
  });
  scope.setSchemaErrorFormatter(
    (errors, dataVar) => new Error((errors[0]?.message ?? `${dataVar} is invalid`).replace(/^body/, dataVar)),
  );
  scope.setErrorHandler(controlErrorHandler(settings.payloadLimitBytes, log));

  scope.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (LARGER_BODIES[`${method} ${route.url}`]) route.bodyLimit = bodyLimitOf(method, route.url);
    }
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: CONTROL_BODY_LIMIT },
    scope.getDefaultJsonParser('error', 'ignore'),
  );
  scope.addContentTypeParser(
    YAML_TYPES,
    { parseAs: 'string', bodyLimit: CONTROL_BODY_LIMIT },
    (_request, text, done) => {
      try {
        done(null, parseYaml(text as string));
      } catch (error) {
        done(
          new EmulatorError('invalid_request', `The body is not valid YAML: ${(error as Error).message}`),
          undefined,
        );
      }
    },
  );
  // An absent body is an empty object: optional bodies then validate, required ones name what is missing.
  scope.addHook('preValidation', async (request) => {
    request.body ??= {};
  });

  const check = adminKeyCheck(settings.adminKey);
  if (check) {
    const open = new Set(
      routesOf(document)
        .filter((route) => route.open)
        .map((route) => route.url),
    );
    scope.addHook('onRequest', async (request) => {
      if (!open.has(request.routeOptions.url ?? '')) await check(request);
    });
  }
}
