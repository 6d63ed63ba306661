// Prism's modules for a browser bundle, by static imports, installed in the core when this module is imported (as
// node/prism-modules.ts does in Node through `require`). The bundle (build/browser-bundle.ts) resolves them as
// Prism does (its own ajv-formats), gives Prism ajv classes that run patterns in linear time (linear-ajv.ts), and
// leaves Postman's transformer out: a Postman collection is refused with a clear error.
/// <reference path="./modules.d.ts" />
import * as oas2 from '@stoplight/http-spec/oas2/operation';
import * as oas from '@stoplight/http-spec/oas';
import * as oas3 from '@stoplight/http-spec/oas3/operation';
import * as deserializers from '@stoplight/prism-http/dist/validator/deserializers/index.js';
import * as validators from '@stoplight/prism-http/dist/validator/index.js';
import * as utils from '@stoplight/prism-http/dist/validator/validators/utils.js';
import * as required from '@stoplight/prism-http/dist/utils/filterRequiredProperties.js';
import * as headers from '@stoplight/prism-http/dist/validator/validators/headers.js';
import * as mediaTypes from '@stoplight/prism-http/dist/validator/utils/wildcardMediaTypeMatch.js';
import * as dateTime from '@stoplight/prism-http/dist/validator/validators/dateTime.js';
import mergeAllOf from '@stoplight/json-schema-merge-allof';
import * as sampler from '@stoplight/json-schema-sampler';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ContractError } from '../contract/contract-error.js';
import { installPrismModules, type PrismModules } from '../prism/prism-modules.js';
import { withLinearPatterns } from './linear-ajv.js';

type Transform = ReturnType<PrismModules['transformer']>;

/** Prism's modules, as imported. */
export function browserPrismModules(): PrismModules {
  return {
    deserializers: deserializers as unknown as PrismModules['deserializers'],
    transformer(kind) {
      if (kind === 'openapi3') return oas3.transformOas3Operations as unknown as Transform;
      if (kind === 'swagger2') return oas2.transformOas2Operations as unknown as Transform;
      return () => {
        throw new ContractError(
          'A Postman collection cannot be read in the browser (its reader weighs 1 MB): convert it to OpenAPI, ' +
            'or use the handlers in Node (membership-mock/msw) or the mock server.',
        );
      };
    },
    convertToJsonSchema: oas.convertToJsonSchema as unknown as PrismModules['convertToJsonSchema'],
    validators: validators as unknown as PrismModules['validators'],
    validateAgainstSchema: utils.validateAgainstSchema as unknown as PrismModules['validateAgainstSchema'],
    convertAjvErrors: utils.convertAjvErrors as unknown as PrismModules['convertAjvErrors'],
    parseMIMEHeader: headers.parseMIMEHeader as unknown as PrismModules['parseMIMEHeader'],
    wildcardMediaTypeMatch: mediaTypes.wildcardMediaTypeMatch,
    stripReadOnlyProperties: required.stripReadOnlyProperties as unknown as PrismModules['stripReadOnlyProperties'],
    stripWriteOnlyProperties: required.stripWriteOnlyProperties as unknown as PrismModules['stripWriteOnlyProperties'],
    mergeAllOf: mergeAllOf as unknown as PrismModules['mergeAllOf'],
    // In the bundle these are linear already (Prism's own instances need that); for the mock's own, made sure here.
    ajv: {
      default: withLinearPatterns(Ajv as never) as unknown as PrismModules['ajv']['default'],
      draft2019_09: withLinearPatterns(Ajv2019 as never) as unknown as PrismModules['ajv']['default'],
      draft2020_12: withLinearPatterns(Ajv2020 as never) as unknown as PrismModules['ajv']['default'],
    },
    addFormats: addFormats as unknown as PrismModules['addFormats'],
    dateTime: dateTime as unknown as PrismModules['dateTime'],
    sampler: sampler as unknown as PrismModules['sampler'],
  };
}

installPrismModules(browserPrismModules());
