import type { BodyKind } from './openapi-routes.js';

// How a publish's Content-Type is delivered (x-emulator-content-types in openapi/topics.yaml): the
// document lists media types and ranges (`text/*`, `application/*+json`) with the kind each is
// delivered as; parameters and case do not matter. A type the document does not list is
// `undefined` here: the body parser publishes it as binary, or refuses it when strict.

export type ContentTypePolicy = 'lenient' | 'strict';

/** The media type of a Content-Type value: no parameters, lower case. */
export function mediaTypeOf(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Looks a Content-Type up in the document's media types: exact ones first, then the ranges. */
export function contentTypeClassifier(
  bodyKinds: ReadonlyMap<string, BodyKind>,
): (contentType: string) => BodyKind | undefined {
  const exact = new Map<string, BodyKind>();
  const ranges: [RegExp, BodyKind][] = [];
  for (const [mediaType, kind] of bodyKinds) {
    const key = mediaType.toLowerCase();
    if (!key.includes('*')) exact.set(key, kind);
    else ranges.push([new RegExp(`^${key.split('*').map(escape).join('[^/;\\s]+')}$`), kind]);
  }
  return (contentType) => {
    const mediaType = mediaTypeOf(contentType);
    return exact.get(mediaType) ?? ranges.find(([pattern]) => pattern.test(mediaType))?.[1];
  };
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');

const classifiers = new WeakMap<ReadonlyMap<string, BodyKind>, (contentType: string) => BodyKind | undefined>();

/** How a publish with this Content-Type is delivered under the policy; 'unsupported' answers 400. */
export function bodyKindOf(
  contentType: string,
  bodyKinds: ReadonlyMap<string, BodyKind>,
  policy: ContentTypePolicy,
): BodyKind | 'unsupported' {
  let classify = classifiers.get(bodyKinds);
  if (classify === undefined) classifiers.set(bodyKinds, (classify = contentTypeClassifier(bodyKinds)));
  return classify(contentType) ?? (policy === 'lenient' ? 'binary' : 'unsupported');
}
