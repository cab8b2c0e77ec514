/**
 * Compares two strings in time that depends only on their lengths, not on where they first differ,
 * so that comparing a presented secret (or its hash) with a stored one leaks nothing through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  // Start non-zero when the lengths differ, and still walk the longer string so the loop count is fixed.
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) {
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  }
  return diff === 0;
}
