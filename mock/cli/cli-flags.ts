// The flags of the main command and its --help, side by side so a test can hold them to each other.
import type { FlagTable } from './parse-flags.js';

export const HELP = `Usage: membership-mock [options]
       membership-mock verify --base-url URL [options]   (check a real server; see verify --help)

Serves a mock of an OpenAPI contract: routes, validation and bodies come from the contract.

Options:
  --config FILE          read the settings from FILE, a JSON file whose keys hold what the flags hold; a flag
                         given beats it (default: membership-mock.config.json where you run it, if there is
                         one; see mock/docs/config.md)
  --contract FILE        the contract to serve, a file or a URL: OpenAPI 3.0 or 3.1, Swagger 2.0 (YAML or
                         JSON), or a Postman collection (v2), with the files and URLs its $refs name
                         (default: the bundled contracts/membership.openapi.yaml). Repeat it for several
                         APIs in one mock: NAME=FILE serves one under /NAME (payments=./payments.yaml),
                         FILE alone at its own paths, named after the file
  --port N               TCP port (default: $PORT, else 4010; 0 picks a free port)
  --host ADDR            interface to listen on (default: 127.0.0.1)
  --seed S               seed for generated bodies and placeholders; the same seed gives the same data (default: 1)
  --static               serve the contract's examples first instead of generated bodies
  --stateless            keep no state: every answer generated, as Prism does
  --placeholders N       records a member's collection starts with (default: 3)
  --clock seed|system    time of created records: the wall clock (default), or minutes from the seed's
                         anchor so a whole session repeats byte for byte
  --as-of today|seed|DAY the day placeholders are read as of, so a live pass is live that day: today (UTC,
                         the default: the same all day), seed (a day of 2025 from the seed, the same on
                         every day: the default with --clock seed), or a day such as 2026-11-26
  --data FILE            start from fixtures: { "/members/m1/passes": [ ...records ] }; fields left out
                         are made from the seed (ids too)
  --state-file FILE      keep the default session's state in the SQLite database FILE across restarts:
                         every change is committed before it is answered; a new FILE starts from --data;
                         a JSON state file of earlier versions is imported once (kept as FILE.imported.json)
  --store URL            share state, overrides, faults and the journal with other replicas through Redis:
                         redis://host:port/db (?prefix=name: keeps its keys apart, ?maxQueued=N); see replicas.md
  --state-sync MODE      normal (default): answered changes survive the mock being killed; full: they
                         survive the machine losing power too (a disk sync per change)
  --cors-origin LIST     allow only these origins, comma-separated (default: any origin; the admin API
                         answers only these, and takes changes only from them or its own origin)
  --allowed-hosts LIST   host names answered besides IP addresses, localhost, *.localhost and --host,
                         comma-separated; .example.com allows its subdomains too; all answers any host
  --no-cors              send no CORS headers
  --no-watch             do not reload the contract when its file changes
  --log FORMAT           pretty (default): one line per request; json: every line on stdout a JSON object
                         (requests, and events with level and msg); off: no request lines. Warnings and
                         errors go to stderr, as JSON lines with json
  --body-limit BYTES     largest request body accepted, larger answers 413 (default: 65536)
  --journal-limit N      calls kept in the journal, oldest dropped first (default: 10000)
  --journal-secrets      record credentials as sent (default: Authorization, cookies and API keys are
                         recorded as their scheme and a sha256 fingerprint)
  --journal-bytes N      bytes the journals of all sessions hold together, oldest call dropped first
                         (default: 67108864, 64 MiB)
  --journal-body-limit N longest body text kept whole in the journal; longer ones keep their start and are
                         marked truncated (default: 16384)
  --session-limit N      named sessions (X-Mock-Session) kept, least recently used dropped (default: 100)
  --collection-limit N   records one collection may hold, placeholders included; a create past it answers
                         507 (default: 1000)
  --state-bytes SIZE     bytes what clients wrote may take across all sessions (created, replaced and
                         deleted records; placeholders are free); a change past it answers 507
                         (default: 64MB; 1GB on disk with --state-file)
  --no-security-check    do not require the contract's credentials (no 401)
  --errors               check every body (examples and generated ones) against its schema and answer one
                         that breaks it with a 500 problem listing the violations, as Prism does (default:
                         an example that breaks it is sent with an sl-violations header, and logged once)
  --latency MS|MIN-MAX   add latency to every answer, fixed or a random range (repeatable under --seed)
  --failure-rate R       share (0-1) of answers replaced by the operation's documented 5xx
  --drop-rate R          share (0-1) of connections closed without an answer
  --proxy URL            stand in front of a real backend: requests go to URL (its path prefixed), both
                         directions checked against the contract; the mock answers what the backend lacks
  --proxy-fallback WHEN  when the mock answers in the backend's place: auto (default: the backend answered
                         501, or 404/405 the operation does not document, or was down or slower than
                         --proxy-timeout), a list of statuses (404,501: those, down and slow), or off
  --proxy-timeout MS     time the backend has to answer (default: 10000)
  --proxy-header H       a header for every forwarded request, "Name: value" (repeatable); never journaled
  --mock-only IDS        operationIds the mock always answers, comma-separated (the backend lacks them)
  --proxy-only IDS       the only operationIds that go to the backend, comma-separated
  --no-proxy-passthrough answer 404/405 for requests no operation matches instead of forwarding them
  --record FILE          write the backend's answers to FILE as HAR as they happen (secrets redacted unless
                         --journal-secrets), bodies whole up to 1 MiB, at most 32 MiB; POST /__mock/har
                         replays it without the backend
  --record-state         keep the records the backend created, listed or read as the mock's state (with
                         --state-file, a later run without the backend serves them)
  --admin-token T        protect /__mock/* with Authorization: Bearer T (or set MOCK_ADMIN_TOKEN);
                         with a token, every host name is answered
  --no-admin             remove the admin API /__mock/* altogether
  -h, --help             show this help
  -v, --version          show the version

Every switch has its opposite, to undo a config file's: --no-stateless, --no-errors, --no-static,
--no-journal-secrets, --no-record-state; --cors, --watch, --security-check, --proxy-passthrough, --admin.

Admin API: GET /__mock lists its endpoints: health, calls (count, wait), overrides, faults, sessions,
           state and its records, reset, metrics (Prometheus); without the token, the probes
           /__mock/health/live and /__mock/health/ready. X-Mock-Session: NAME (or ?session=NAME) speaks
           to one session; changes need Content-Type: application/json, an Authorization or an X-Mock-* header
Per request: Prefer: code=404 | example=NAME | dynamic=true|false | delay=MS, comma-separated,
             or the query ?__code=404&__example=NAME&__dynamic=false&__delay=MS`;

/** Every flag the main command takes; each one is described in {@link HELP} (test/unit/cli-flags.test.ts). */
export const FLAGS = {
  config: { type: 'string' },
  contract: { type: 'string', multiple: true },
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  static: { type: 'boolean' },
  'body-limit': { type: 'string' },
  'journal-limit': { type: 'string' },
  'journal-bytes': { type: 'string' },
  'journal-body-limit': { type: 'string' },
  'session-limit': { type: 'string' },
  'journal-secrets': { type: 'boolean' },
  'collection-limit': { type: 'string' },
  'state-bytes': { type: 'string' },
  'no-security-check': { type: 'boolean' },
  errors: { type: 'boolean' },
  stateless: { type: 'boolean' },
  placeholders: { type: 'string' },
  clock: { type: 'string' },
  'as-of': { type: 'string' },
  data: { type: 'string' },
  'state-file': { type: 'string' },
  'state-sync': { type: 'string' },
  store: { type: 'string' },
  'cors-origin': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'no-cors': { type: 'boolean' },
  'no-watch': { type: 'boolean' },
  log: { type: 'string' },
  'admin-token': { type: 'string' },
  latency: { type: 'string' },
  'failure-rate': { type: 'string' },
  'drop-rate': { type: 'string' },
  'no-admin': { type: 'boolean' },
  proxy: { type: 'string' },
  'proxy-fallback': { type: 'string' },
  'proxy-timeout': { type: 'string' },
  'proxy-header': { type: 'string', multiple: true },
  'mock-only': { type: 'string' },
  'proxy-only': { type: 'string' },
  'no-proxy-passthrough': { type: 'boolean' },
  record: { type: 'string' },
  'record-state': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies FlagTable;
