// Where an operation keeps the parts of its schemas that contain themselves.
import type { IHttpOperation } from '@stoplight/types';

/**
 * The operation's `__bundled__`: the schemas its `$ref: '#/__bundled__/<name>'` references name (the loader
 * puts it there, as Prism's does); `undefined` when none of its schemas contains itself.
 * @example generator.generate(schema, key, bundleOf(operation.spec))
 */
export function bundleOf(spec: IHttpOperation | undefined): Record<string, unknown> | undefined {
  return (spec as { __bundled__?: Record<string, unknown> } | undefined)?.__bundled__;
}
