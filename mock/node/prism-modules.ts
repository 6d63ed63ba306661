// Loads the parts of @stoplight/prism-http the mock uses, where Prism finds them (its own copies of ajv,
// ajv-formats, http-spec, the sampler), and installs them in the core: importing this module is enough.
import { createRequire } from 'node:module';
import { installPrismModules, type PrismModules } from '../prism/prism-modules.js';

const require = createRequire(import.meta.url);
/** Resolves as Prism does, from its own package: its dependencies, not the mock's. */
const fromPrism = createRequire(require.resolve('@stoplight/prism-http/package.json'));

const utils = require('@stoplight/prism-http/dist/validator/validators/utils.js') as Pick<
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

installPrismModules(loadPrismModules());
