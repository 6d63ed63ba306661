// Text made safe for the reports the mock writes for CI: XML (JUnit) and Markdown tables (job summaries).

/** Text safe in an XML attribute or element: markup escaped, characters XML cannot hold replaced by U+FFFD. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\x09\x0a\x0d\x20-\u{d7ff}\u{e000}-\u{fffd}\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Text safe in a Markdown table cell: no pipe ends the cell, no newline the row, no HTML is read. */
export function markdownCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');
}
