/** `a.go`, `a.go and b.go`, `a.go, b.go and 3 more files`: files named in a message. */
export function describeFiles(files: readonly string[]): string {
  if (files.length <= 2) return files.join(' and ');
  if (files.length === 3) return `${files[0]}, ${files[1]} and ${files[2]}`;
  return `${files[0]}, ${files[1]} and ${files.length - 2} more files`;
}
