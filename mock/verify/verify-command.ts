// `membership-mock verify --base-url URL`: the provider check as a command, for CI.
import { resolve } from 'node:path';
import { DEFAULT_CONTRACT } from '../node/default-contract.js';
import { writeReport } from '../node/write-report.js';
import { parseFlags, UsageError, type FlagTable } from '../cli/parse-flags.js';
import { CONFIG_FILE, loadConfig } from '../cli/config-file.js';
import { contractEntries, proxyOfEntry, RENAMED_KEYS } from '../cli/apply-config.js';
import { unknownApi } from '../contract/combine-contracts.js';
import { REPORT_FORMATS, type ReportFormat } from './report-formats.js';

export const VERIFY_HELP = `Usage: membership-mock verify --base-url URL [options]

Walks the contract's operations against a real server (create, list, read, delete, with bodies generated
from the request schemas), checks every answer against the contract, prints a report, and exits 1 on any
violation.

Options:
  --base-url URL       the server to verify (default: the backend the config file gives the API, if any)
  --contract FILE      OpenAPI file (default: the config file's contract, else the bundled
                       contracts/membership.openapi.yaml)
  --api NAME           one API of the config file's "contracts": its contract, and its backend's URL and
                       headers unless --base-url and --header are given
  --config FILE        the config file (default: membership-mock.config.json where the command is run)
  --token T            send Authorization: Bearer T (or set MOCK_VERIFY_TOKEN)
  --header "K: V"      another header to send; repeat as needed
  --param NAME=VALUE   a fixed path parameter value, e.g. member_id=mbr_1; repeat as needed
  --seed S             seed for generated bodies and values (default: 1)
  --timeout MS         per request (default: 10000)
  --format F           text (default), json, junit or markdown
  --output FILE        write the report there in --format (over what is there; appended to
                       $GITHUB_STEP_SUMMARY), and print the text report too
  -h, --help           show this help

Exit codes: 0 every answer kept the contract; 1 a violation (an answer that breaks the contract, or none);
2 verify could not run (a flag, the contract, the base URL).`;

/** Every flag of `verify`; each one is described in {@link VERIFY_HELP} (test/unit/cli-flags.test.ts). */
export const VERIFY_FLAGS = {
  'base-url': { type: 'string' },
  contract: { type: 'string' },
  api: { type: 'string' },
  config: { type: 'string' },
  token: { type: 'string' },
  header: { type: 'string', multiple: true },
  param: { type: 'string', multiple: true },
  seed: { type: 'string' },
  timeout: { type: 'string' },
  format: { type: 'string' },
  output: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies FlagTable;

/** Runs the command; resolves with the exit code (0 clean, 1 violations, 2 usage). */
export async function runVerify(
  argv: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const usage = (message: string) => (err(`membership-mock verify: ${message}\nRun with --help for the options.\n`), 2);
  let values;
  try {
    ({ values } = parseFlags(argv, VERIFY_FLAGS));
  } catch (error) {
    // A misspelt flag names the one meant, as the main command's do (cli/parse-flags.ts).
    return usage((error as Error).message);
  }
  if (values.help) return (out(`${VERIFY_HELP}\n`), 0);
  let target: Target;
  try {
    target = targetOf(values);
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    throw error;
  }
  const baseUrl = values['base-url'] ?? target.baseUrl;
  if (!baseUrl)
    return usage(
      target.api
        ? `--base-url is required: ${target.api} has no backend in ${target.file}.`
        : '--base-url is required.',
    );
  // The file's headers (its secrets) go only to the backend the file names, and only when no --header is given.
  const fromFile = values['base-url'] === undefined && values.header === undefined;
  const headers: Record<string, string> = fromFile ? { ...target.headers } : {};
  const token = values.token ?? process.env.MOCK_VERIFY_TOKEN;
  if (token) headers.Authorization = `Bearer ${token}`;
  for (const header of values.header ?? []) {
    const at = header.indexOf(':');
    if (at < 1) return usage(`--header "${header}" must look like "Name: value".`);
    headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
  }
  const params: Record<string, string> = {};
  for (const param of values.param ?? []) {
    const at = param.indexOf('=');
    if (at < 1) return usage(`--param "${param}" must look like name=value.`);
    params[param.slice(0, at)] = param.slice(at + 1);
  }
  const format = (values.format ?? 'text') as ReportFormat;
  if (!REPORT_FORMATS.includes(format))
    return usage(`--format must be one of ${REPORT_FORMATS.join(', ')}, not "${values.format}".`);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    return usage('--timeout must be a positive number of milliseconds.');
  const { contract } = target;

  const { verifyProvider, formatAs } = await import('./verify-provider.js');
  try {
    const report = await verifyProvider({
      baseUrl,
      contract,
      headers,
      params,
      seed: values.seed,
      timeoutMs,
    });
    if (values.output === undefined) out(`${formatAs(format, report)}\n`);
    else {
      // The file for the CI server (over the last run's; appended to GitHub's job summary), the text for the
      // person reading the job's log.
      await writeReport(resolve(process.env.INIT_CWD ?? process.cwd(), values.output), formatAs(format, report));
      out(`${formatAs('text', report)}\n`);
    }
    return report.violations > 0 ? 1 : 0;
  } catch (error) {
    err(`membership-mock verify: ${(error as Error).message}\n`);
    return 2;
  }
}

/** What to verify: a contract, and what the config file says of its server. */
interface Target {
  contract: string;
  /** The API of the config file's `contracts` it is. */
  api?: string;
  /** The URL of its backend in the config file. */
  baseUrl?: string;
  /** The headers the config file sends its backend (secrets read from the environment). */
  headers?: Record<string, string>;
  /** The config file, as messages name it. */
  file?: string;
}

/**
 * The contract `--contract` names; else the API `--api` names in the config file, with its backend; else the
 * file's one contract and proxy; else the bundled contract.
 * @throws UsageError for `--api` without a file of several APIs, a misspelt API, or both `--api` and `--contract`
 */
function targetOf(values: { contract?: string; api?: string; config?: string }): Target {
  const cwd = process.env.INIT_CWD ?? process.cwd();
  if (values.contract !== undefined) {
    if (values.api !== undefined) throw new UsageError('give --contract or --api, not both.');
    return { contract: /^https?:/i.test(values.contract) ? values.contract : resolve(cwd, values.contract) };
  }
  const file = loadConfig(values.config && resolve(cwd, values.config), cwd, RENAMED_KEYS);
  const config = file?.config;
  if (values.api === undefined) {
    if (config?.contracts)
      throw new UsageError(
        `${file!.name} serves several APIs: name the one to verify with --api (${config.contracts.map((c) => c.name).join(', ')}).`,
      );
    if (!config) return { contract: DEFAULT_CONTRACT };
    // The file's backend, its secret headers read as `npm start` reads them; the bundled contract when it names none.
    const backend =
      config.proxy === undefined ? undefined : proxyOfEntry(config.proxy, 'proxy', process.env, file!.name);
    const proxy = typeof backend === 'string' ? { url: backend } : backend;
    return {
      contract: config.contract === undefined ? DEFAULT_CONTRACT : resolve(file!.dir, config.contract),
      baseUrl: proxy?.url,
      headers: proxy?.headers,
      file: file!.name,
    };
  }
  if (!config?.contracts)
    throw new UsageError(
      `--api names one API of a config file's "contracts", and ${file ? `${file.name} has none` : `there is no ${CONFIG_FILE} here (--config names another)`}.`,
    );
  const index = config.contracts.findIndex((one) => one.name === values.api);
  if (index < 0)
    throw new UsageError(
      unknownApi(
        values.api,
        config.contracts.map((one) => one.name),
      ),
    );
  // Only this API's secrets are read: another API's variable need not be set to verify this one.
  const only = config.contracts.map((one, i) => (i === index ? one : { ...one, proxy: undefined }));
  const entry = contractEntries(only, file!.dir, process.env, file!.name)![index]!;
  const proxy = typeof entry.proxy === 'string' ? { url: entry.proxy } : entry.proxy;
  return {
    contract: entry.contract as string,
    api: entry.name,
    baseUrl: proxy?.url,
    headers: proxy?.headers,
    file: file!.name,
  };
}
