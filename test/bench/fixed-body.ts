// The body the bench's fixed servers send (the floors, WireMock's stubs): a JSON object of an exact size.

/** A JSON object of exactly `bytes` bytes (ASCII padding in one string field). */
export function fixedBody(bytes: number): string {
  const empty = '{"data":""}';
  return `{"data":"${'x'.repeat(Math.max(0, bytes - empty.length))}"}`;
}
