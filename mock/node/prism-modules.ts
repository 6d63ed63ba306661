// Loads the parts of @stoplight/prism-http the mock uses, where Prism finds them (its own copies of ajv,
// ajv-formats, http-spec, the sampler), and installs them in the core: importing this module is enough.
// Prism's ajv instances are made to run contract patterns in linear time (see withLinearPatterns).
import { createRequire } from 'node:module';
import { installGuardedMatch, patternEngine } from '../lib/pattern-engine.js';
import { installPrismModules, type PrismModules } from '../prism/prism-modules.js';
import { createTimedMatch } from './timed-match.js';

const require = createRequire(import.meta.url);
/** Resolves as Prism does, from its own package: its dependencies, not the mock's. */
const fromPrism = createRequire(require.resolve('@stoplight/prism-http/package.json'));

/** How long a pattern RE2 cannot run may take on one value: with the hand-over, the event loop waits < 50 ms. */
const PATTERN_BUDGET_MS = 40;
installGuardedMatch(createTimedMatch(PATTERN_BUDGET_MS));

const UTILS = '@stoplight/prism-http/dist/validator/validators/utils.js';
/** Marks Prism's utilities once their ajv instances run patterns in linear time. */
const LINEAR = Symbol.for('membership-mock.linear-patterns');
const utils = withLinearPatterns(() => require(UTILS) as object) as Pick<
  PrismModules,
  'validateAgainstSchema' | 'convertAjvErrors'
>;
const required = require('@stoplight/prism-http/dist/utils/filterRequiredProperties.js') as Pick<
  PrismModules,
  'stripReadOnlyProperties' | 'stripWriteOnlyProperties'
>;
type Transform = ReturnType<PrismModules['transformer']>;

/** Prism's modules, loaded through Node's `require` from Prism's own package. */
export function loadPrismModules(): PrismModules {
  return {
    deserializers:
      require('@stoplight/prism-http/dist/validator/deserializers/index.js') as PrismModules['deserializers'],
    transformer(kind) {
      // Prism reads documents with these (not with its own loader, utils/operations.js: it dereferences the
      // whole document first; see contract/). Each is required when first used.
      if (kind === 'openapi3')
        return (fromPrism('@stoplight/http-spec/oas3/operation') as { transformOas3Operations: Transform })
          .transformOas3Operations;
      if (kind === 'swagger2')
        return (fromPrism('@stoplight/http-spec/oas2/operation') as { transformOas2Operations: Transform })
          .transformOas2Operations;
      return (
        fromPrism('@stoplight/http-spec/postman/operation') as { transformPostmanCollectionOperations: Transform }
      ).transformPostmanCollectionOperations;
    },
    convertToJsonSchema: (fromPrism('@stoplight/http-spec/oas') as Pick<PrismModules, 'convertToJsonSchema'>)
      .convertToJsonSchema,
    validators: require('@stoplight/prism-http/dist/validator/index.js') as PrismModules['validators'],
    validateAgainstSchema: utils.validateAgainstSchema,
    convertAjvErrors: utils.convertAjvErrors,
    parseMIMEHeader: (
      require('@stoplight/prism-http/dist/validator/validators/headers.js') as Pick<PrismModules, 'parseMIMEHeader'>
    ).parseMIMEHeader,
    wildcardMediaTypeMatch: (
      require('@stoplight/prism-http/dist/validator/utils/wildcardMediaTypeMatch.js') as Pick<
        PrismModules,
        'wildcardMediaTypeMatch'
      >
    ).wildcardMediaTypeMatch,
    stripReadOnlyProperties: required.stripReadOnlyProperties,
    stripWriteOnlyProperties: required.stripWriteOnlyProperties,
    mergeAllOf: fromPrism('@stoplight/json-schema-merge-allof') as PrismModules['mergeAllOf'],
    ajv: {
      default: (fromPrism('ajv') as { default: PrismModules['ajv']['default'] }).default,
      draft2019_09: (fromPrism('ajv/dist/2019') as { default: PrismModules['ajv']['default'] }).default,
      draft2020_12: (fromPrism('ajv/dist/2020') as { default: PrismModules['ajv']['default'] }).default,
    },
    addFormats: (fromPrism('ajv-formats') as { default: PrismModules['addFormats'] }).default,
    dateTime: require('@stoplight/prism-http/dist/validator/validators/dateTime.js') as PrismModules['dateTime'],
    sampler: fromPrism('@stoplight/json-schema-sampler') as PrismModules['sampler'],
  };
}

/**
 * Requires Prism's validation utilities so that the six ajv instances they make at once (three drafts, with and
 * without coercion: every request and response check of Prism's) compile patterns with {@link patternEngine}.
 * Prism takes no ajv options, so for that one require its ajv classes are replaced by ones that add ajv's
 * `code.regExp` option, then put back: the only patch of Prism's, and nothing else sees it. A backtracking
 * RegExp took 20 s on a 41-character value (see docs/security.md). The utilities are marked: a second load of
 * this file in one process (a test runner's) finds them made so already.
 * @throws Error when something else loaded them first: their instances would backtrack
 */
function withLinearPatterns(load: () => object): object {
  const loaded = require.cache[require.resolve(UTILS)]?.exports as Record<symbol, unknown> | undefined;
  if (loaded?.[LINEAR]) return loaded;
  if (loaded)
    throw new Error("Prism's validation was loaded before mock/node/prism-modules.js: its patterns would backtrack.");
  type AjvModule = { default: new (options?: { code?: object }) => object };
  const modules = ['ajv', 'ajv/dist/2019', 'ajv/dist/2020'].map((id) => fromPrism(id) as AjvModule);
  const originals = modules.map((module) => module.default);
  modules.forEach((module, i) => {
    const Ajv = originals[i]!;
    module.default = class extends Ajv {
      constructor(options: { code?: object } = {}) {
        super({ ...options, code: { ...options.code, regExp: patternEngine } });
      }
    };
  });
  try {
    return Object.assign(load(), { [LINEAR]: true });
  } finally {
    modules.forEach((module, i) => (module.default = originals[i]!));
  }
}

installPrismModules(loadPrismModules());
