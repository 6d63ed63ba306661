// ajv classes that compile every pattern with the mock's linear-time engine (lib/pattern-engine.ts). The browser
// bundle (build/browser-bundle.ts) gives Prism these for `ajv`, `ajv/dist/2019` and `ajv/dist/2020`, so the ajv
// instances Prism's validation makes when it loads run patterns as on the server: no require order, no patch.
import { patternEngine } from '../lib/pattern-engine.js';

type AjvOptions = { code?: object } & Record<string, unknown>;
type AjvClass = new (options?: AjvOptions) => object;

/**
 * `Ajv` whose instances are given `code.regExp: patternEngine`, whatever options they are made with.
 * @example export default withLinearPatterns(Ajv) // what the bundle's `ajv` exports
 */
export function withLinearPatterns(Ajv: AjvClass): AjvClass {
  return class LinearAjv extends Ajv {
    constructor(options: AjvOptions = {}) {
      super({ ...options, code: { ...options.code, regExp: patternEngine } });
    }
  };
}
